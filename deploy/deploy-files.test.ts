import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse, parseAllDocuments } from 'yaml'
import { configVariableNames, loadConfig } from '../server/config'

/** The part of a Deployment's spec the checks read. */
interface DeploymentSpec {
  selector: { matchLabels: Record<string, string> }
  template: {
    metadata: { labels: Record<string, string> }
    spec: {
      containers: Array<{
        command?: string[]
        envFrom?: unknown[]
        ports?: Array<{ containerPort: number }>
      }>
    }
  }
}

const folder = new URL('./', import.meta.url)
const read = (name: string) => readFileSync(new URL(name, folder), 'utf8')
const known = new Set(configVariableNames)

/** The variables of a service as strings (YAML numbers and booleans are quoted in the files). */
const asEnvironment = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [name, String(value)]))

// The containers cannot run here: these checks are what `docker compose config` and a schema
// lint would catch, plus what only this product knows (its variables and ports).
describe('deployment files', () => {
  it('docker-compose.yml: the services of issue 22, each process configured as server/config.ts reads it', () => {
    const compose = parse(read('docker-compose.yml'), { merge: true }) as {
      services: Record<
        string,
        { environment?: Record<string, unknown>; command?: unknown; ports?: string[] }
      >
    }
    const services = compose.services
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining([
        'postgres',
        'minio',
        'mosquitto',
        'api-1',
        'api-2',
        'worker',
        'proxy',
      ]),
    )
    for (const name of ['api-1', 'api-2', 'worker']) {
      const environment = asEnvironment(services[name]!.environment ?? {})
      expect(Object.keys(environment).filter((variable) => !known.has(variable))).toEqual([])
      const config = loadConfig(environment, '/')
      expect(config.jobQueue).toMatchObject({ kind: 'postgres' })
      expect(config.storage).toMatchObject({ kind: 's3', bucket: 'twinscape' })
      // the proxy sends to the port the processes listen on
      expect(services.proxy!.command).toContain(
        `${name === 'worker' ? 'api-1' : name}:${config.port}`,
      )
    }
    expect(services.worker!.command).toEqual(['npm', 'run', 'worker'])
    // the database, store and bucket the processes name are the ones the file starts
    const api = asEnvironment(services['api-1']!.environment ?? {})
    const postgres = asEnvironment(services.postgres!.environment ?? {})
    expect(api.DATABASE_URL).toBe(
      `postgres://${postgres.POSTGRES_USER}:${postgres.POSTGRES_PASSWORD}@postgres:5432/${postgres.POSTGRES_DB}`,
    )
    const minio = asEnvironment(services.minio!.environment ?? {})
    expect([api.AWS_ACCESS_KEY_ID, api.AWS_SECRET_ACCESS_KEY]).toEqual([
      minio.MINIO_ROOT_USER,
      minio.MINIO_ROOT_PASSWORD,
    ])
  })

  it('k8s/: every manifest parses, names its kind, and the pods read only known variables on the port they expose', () => {
    const documents = readdirSync(new URL('k8s/', folder))
      .filter((name) => name.endsWith('.yaml'))
      .flatMap((name) =>
        parseAllDocuments(read(`k8s/${name}`)).map((document) => {
          expect(document.errors).toEqual([])
          return document.toJS() as {
            apiVersion: string
            kind: string
            metadata: { name: string }
            data?: Record<string, unknown>
            spec?: DeploymentSpec
          }
        }),
      )
    for (const document of documents) {
      expect(document.apiVersion).toMatch(/^(v1|apps\/v1|networking\.k8s\.io\/v1)$/)
      expect(document.metadata.name).toMatch(/^[a-z0-9-]+$/)
    }
    const configMap = documents.find((document) => document.kind === 'ConfigMap')!
    const environment = asEnvironment(configMap.data ?? {})
    expect(Object.keys(environment).filter((variable) => !known.has(variable))).toEqual([])
    // DATABASE_URL comes from the Secret; any postgres:// address stands in for it here
    const config = loadConfig(
      { ...environment, DATABASE_URL: 'postgres://u:p@db:5432/twinscape' },
      '/',
    )
    expect(config.jobQueue).toMatchObject({ kind: 'postgres' })
    const deployments = documents.filter((document) => document.kind === 'Deployment')
    expect(
      deployments.map((document) => document.spec!.template.spec.containers[0]!.command),
    ).toEqual(
      expect.arrayContaining([
        ['npm', 'run', 'serve'],
        ['npm', 'run', 'worker'],
      ]),
    )
    for (const deployment of deployments) {
      const container = deployment.spec!.template.spec.containers[0]!
      expect(container.envFrom).toContainEqual({ configMapRef: { name: configMap.metadata.name } })
      for (const port of container.ports ?? []) expect(port.containerPort).toBe(config.port)
      expect(deployment.spec!.selector.matchLabels).toEqual(
        deployment.spec!.template.metadata.labels,
      )
    }
  })
})
