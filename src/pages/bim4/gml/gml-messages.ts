import { msg } from '@lingui/core/macro'

/**
 * The GML path and visit messages of SPEC §8, word for word in English, translated in the
 * catalogs. Kept in one place so the panel, the visit tools and the tests use the same text.
 */
export const gmlMessages = {
  /** An action needs the network in the engine, and the project has a file that is not drawn. */
  notLoaded: msg`GML file was not loaded.`,
  /** The shortest path needs a network first. */
  loadFirst: msg`Load the GML path first.`,
  /** A route end is missing, both ends are the same State, or no route joins them. */
  reselectEnds: msg`Re-select the start point or the end point.`,
  /** An action about the route (its steps, clearing it) before one was drawn. */
  drawRouteFirst: msg`Draw the shortest path first, please.`,
  /** The project has no GML file at all. */
  noFile: msg`There is no GML file.`,
  /** The engine could not fetch or parse the file. */
  loadFailed: msg`Failed to load GML file.`,
  /** "Find route" with neither end chosen. */
  notSelected: msg`Not selected paths`,
}
