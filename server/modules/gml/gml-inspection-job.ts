import { createReadStream } from 'node:fs'
import type { JobKind } from '../jobs/job-queue'
import { type GmlInspectionOptions, type GmlSummary, inspectGmlInThread } from './inspect-gml'

/** A large GML file to check: where it waits on disk and the limits to check it against. */
export interface GmlInspectionInput {
  filePath: string
  options: GmlInspectionOptions
}

/**
 * Parsing a large IndoorGML document in a worker thread, as a job of the server's one queue
 * (the CPU lane it shares with model conversions), so one user's uploads cannot hold up
 * another's and a document that parses for too long is stopped.
 */
export const gmlInspectionJob: JobKind<GmlInspectionInput, GmlSummary> = {
  name: 'gml.inspect',
  lane: 'cpu',
  timeLimitMs: 2 * 60_000,
  async run({ filePath, options }, { signal }) {
    const source = createReadStream(filePath)
    try {
      return await inspectGmlInThread(source, options, signal)
    } finally {
      source.destroy()
    }
  },
}
