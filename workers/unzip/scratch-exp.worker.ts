import * as Comlink from 'comlink'
import { unzipSync } from 'fflate'
import { extractArchive } from './zip-extractor'
const api = {
  async run(kind: string, blob: Blob) {
    const start = performance.now()
    if (kind === 'unzipSync') unzipSync(new Uint8Array(await blob.arrayBuffer()))
    else if (kind === 'oursBytes') await extractArchive(new Uint8Array(await blob.arrayBuffer()), { verifyChecksums: false })
    else if (kind === 'oursBlob') await extractArchive(blob, { verifyChecksums: false })
    else if (kind === 'oursBlobProgress') await extractArchive(blob, { verifyChecksums: false, onProgress: () => undefined })
    return performance.now() - start
  },
}
export type ScratchApi = typeof api
Comlink.expose(api)
