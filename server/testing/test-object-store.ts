import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import { loadConfig } from '../config'
import type { S3StorageSettings } from '../plugins/storage-settings'

/**
 * A local S3-compatible server (s3rver, on a free port of 127.0.0.1) with one empty bucket, so
 * the S3 back-end of the file store is tested against a real HTTP store and needs no network.
 */
export interface TestObjectStore {
  bucket: string
  endpoint: string
  /** The variables that put a server's files in this store under `prefix`. */
  env(prefix: string, serve?: 'redirect' | 'proxy'): Record<string, string>
  /** The same, as the settings the server reads from them. */
  settings(prefix: string, serve?: 'redirect' | 'proxy'): S3StorageSettings
  /** Stops answering (the store is unreachable) and keeps what it stored. */
  stop(): Promise<void>
  /** Answers again, on the same address, with what it stored before `stop`. */
  restart(): Promise<void>
  /** Stops the server and deletes what it stored. */
  close(): Promise<void>
}

export async function startTestObjectStore(): Promise<TestObjectStore> {
  const directory = await mkdtemp(join(tmpdir(), 'twinscape-s3-'))
  const bucket = 'twinscape-test'
  const serverOn = (port: number) =>
    new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: bucket, configs: [] }],
    })
  let server: S3rver | undefined = serverOn(0)
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  const env = (prefix: string, serve: 'redirect' | 'proxy' = 'proxy') => ({
    STORAGE_URL: `s3://${bucket}/${prefix}`,
    STORAGE_SERVE: serve,
    AWS_ENDPOINT_URL_S3: endpoint,
    AWS_REGION: 'us-east-1',
    // s3rver's own keys: it checks signatures as S3 does
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  })
  return {
    bucket,
    endpoint,
    env,
    settings(prefix, serve) {
      const { storage } = loadConfig({ ...env(prefix, serve), DATA_DIR: directory })
      if (storage.kind !== 's3') throw new Error('the test store variables did not select S3')
      return storage
    },
    async stop() {
      await server?.close()
      server = undefined
    },
    async restart() {
      if (server !== undefined) return
      server = serverOn(port)
      await server.run()
    },
    async close() {
      await server?.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
}
