import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { zipSync } from 'fflate'
import { benchTilesetRecipe, generateTileset } from './generate-tileset'
import type { ProductServer } from './product-server'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** Every file under a folder, as zip entries named by their path inside it. */
async function zipFolder(folder: string): Promise<Uint8Array> {
  const entries: Record<string, [Uint8Array, { level: 0 }]> = {}
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    entries[relative(folder, path)] = [await readFile(path), { level: 0 }]
  }
  return zipSync(entries)
}

/**
 * A city project with the generated bench tileset (depth 4: 341 tiles) uploaded through the
 * API, as an operator's browser does it; answers the signed address of its root tileset.json and
 * the tiles' addresses (absolute paths).
 */
export async function uploadBenchTileset(
  api: ProductServer,
  project: { name: string; description: string },
): Promise<{ rootPath: string; tilePaths: string[] }> {
  const { base, admin } = api
  const { token } = await api.post<{ token: string }>('login', admin)
  const cover = await readFile(join(root, '..', 'shared', 'data', 'gltf', 'Duck', 'DuckCM.png'))
  const coverForm = new FormData()
  coverForm.append('purpose', 'project-cover')
  coverForm.append('file', new Blob([cover], { type: 'image/png' }), 'cover.png')
  const coverAnswer = (await (
    await fetch(`${base}/web/upload/uploadJpg`, {
      method: 'POST',
      headers: { token },
      body: coverForm,
    })
  ).json()) as { datum: { uuid: string } }
  const created = await api.post<{ id: string }>(
    'project/addProject',
    {
      kind: 'city',
      name: project.name,
      detailedaddress: 'Harbour road 1',
      description: project.description,
      prewiewpath_uuid: coverAnswer.datum.uuid,
      project_center: benchTilesetRecipe.origin,
    },
    token,
  )
  const folder = await mkdtemp(join(tmpdir(), 'bench-tileset-'))
  try {
    generateTileset({ ...benchTilesetRecipe, depth: 4 }, folder)
    const form = new FormData()
    form.append('project_id', created.id)
    form.append('file', new Blob([new Uint8Array(await zipFolder(folder))]), 'bench-tiles.zip')
    const uploaded = (await (
      await fetch(`${base}/web/upload/uploadTiltModel`, {
        method: 'POST',
        headers: { token },
        body: form,
      })
    ).json()) as { code: string; message: string; datum: { root_url: string | null } }
    if (uploaded.code !== '0' || !uploaded.datum.root_url) {
      throw new Error(`uploadTiltModel: ${uploaded.message}`)
    }
    const rootPath = uploaded.datum.root_url
    const prefix = rootPath.slice(0, rootPath.lastIndexOf('/') + 1)
    const tileset = JSON.parse(await readFile(join(folder, 'tileset.json'), 'utf8'))
    const tilePaths: string[] = []
    const walk = (tile: { content?: { uri: string }; children?: unknown[] }) => {
      if (tile.content) tilePaths.push(`${prefix}${tile.content.uri}`)
      for (const child of tile.children ?? []) walk(child as typeof tile)
    }
    walk(tileset.root)
    return { rootPath, tilePaths }
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}
