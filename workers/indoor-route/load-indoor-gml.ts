import { type BuiltNavigationGraph, buildNavigationGraph } from './build-navigation-graph'
import {
  type GmlChunkSource,
  type GmlParseOptions,
  parseIndoorGml,
  parseIndoorGmlStream,
} from './gml-parser'

/** Parses an IndoorGML document held in memory and builds its navigation graph. */
export function loadIndoorGml(
  input: string | Uint8Array | ArrayBuffer,
  options: GmlParseOptions = {},
): BuiltNavigationGraph {
  return buildNavigationGraph(parseIndoorGml(input, options))
}

/** Streams an IndoorGML document (a file stream, a fetch body) into a navigation graph. */
export async function loadIndoorGmlStream(
  source: GmlChunkSource,
  options: GmlParseOptions = {},
): Promise<BuiltNavigationGraph> {
  return buildNavigationGraph(await parseIndoorGmlStream(source, options))
}
