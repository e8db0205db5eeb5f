import type { ObliquePhotograph } from '../../../contract/city'
import type { JobKind } from '../jobs/job-queue'
import type { TilesetsService } from './tilesets.service'

/** One ingest as plain data: who, into which project and tileset, from which file on disk. */
export type TilesetIngestInput = Parameters<TilesetsService['ingest']>[0]

/** Largest archive ingest time: gigabytes of tiles are extracted and checked file by file. */
const ingestTimeLimitMs = 60 * 60_000

/**
 * Tileset ingest as a job of the app's queue ('io' lane: it streams to disk rather than
 * computes), so a user uploading many archives takes turns with everyone else's ingests.
 * On the shared queue (JOB_QUEUE=postgres) any worker process runs it.
 * The extraction does not yet stop at the signal: a run past its time limit is reported failed
 * while it winds down in its slot.
 */
export function tilesetIngestJob(
  tilesets: TilesetsService,
): JobKind<TilesetIngestInput, ObliquePhotograph> {
  return {
    name: 'tileset.ingest',
    lane: 'io',
    timeLimitMs: ingestTimeLimitMs,
    // the archive is a file under DATA_DIR: a worker on another machine shares that volume
    runsAnywhere: true,
    run: (input) => tilesets.ingest(input),
  }
}
