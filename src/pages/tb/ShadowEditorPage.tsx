import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { shadowEditorAddress } from '../../../contract/embedded-products'
import type { Project } from '../../api/project'
import * as projectApi from '../../api/project'
import type { PageProps } from '../../app/page-props'
import { errorText } from '../../components/feedback/error-text'
import { EmptyState, ErrorState, Select, Spinner } from '../../ui'
import { EmbeddedFrame } from './EmbeddedFrame'
import { useEmbeddedProducts } from './embedded-products'
import { NotConfigured } from './NotConfigured'
import './tb.css'

/** Where the editor reads the project's scene: its structure manifest, else the API. */
export function sceneUrlOf(project: Pick<Project, 'shell_json_path'>, origin: string): string {
  return new URL(project.shell_json_path ?? '/web/', origin).toString()
}

/**
 * `/tbPage/shadowEditor?project_id=…` (SPEC §2 "A shadow-render editor page is embedded. It is
 * addressed with name, id, type json, url and token"; issue 17 item 9): the configured editor,
 * opened on a project of the user's with a project token; without an editor address, how to
 * configure one.
 */
export function ShadowEditorPage({ search }: PageProps) {
  const { t } = useLingui()
  const state = useEmbeddedProducts()
  const editorUrl = state.status === 'ready' ? (state.products.shadowEditor?.url ?? null) : null
  const [projects, setProjects] = useState<Project[] | null>(null)
  const [projectId, setProjectId] = useState<string | null>(
    new URLSearchParams(search).get('project_id'),
  )
  const [address, setAddress] = useState<string | null>(null)
  const [failure, setFailure] = useState<unknown>(null)

  useEffect(() => {
    if (editorUrl === null) return undefined
    const controller = new AbortController()
    projectApi
      .findProjects({ pageSize: 100, sort: 'updated_at', order: 'desc' }, controller.signal)
      .then((page) => setProjects(page.list))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setFailure(error)
      })
    return () => controller.abort()
  }, [editorUrl])

  const project = projects?.find((candidate) => candidate.id === projectId) ?? null
  useEffect(() => {
    setAddress(null)
    if (editorUrl === null || project === null) return undefined
    let isCurrent = true
    // a project token per opening: read access to this one project, revocable
    projectApi
      .getProjectToken(project.id)
      .then((token) => {
        if (!isCurrent) return
        setAddress(
          shadowEditorAddress(editorUrl, {
            id: project.id,
            name: project.name,
            sceneUrl: sceneUrlOf(project, window.location.origin),
            projectToken: token.project_token,
          }),
        )
      })
      .catch((error: unknown) => {
        if (isCurrent) setFailure(error)
      })
    return () => {
      isCurrent = false
    }
  }, [editorUrl, project])

  return (
    <section className="ts-tb-page" data-testid="tb-shadow-editor">
      <h1 className="ts-page-title">
        <Trans>Shadow-render editor</Trans>
      </h1>
      {state.status === 'loading' && <Spinner />}
      {state.status === 'error' && <ErrorState message={errorText(state.error)} />}
      {failure !== null && <ErrorState message={errorText(failure)} />}
      {state.status === 'ready' && editorUrl === null && (
        <NotConfigured
          settings={['SHADOW_EDITOR_URL=https://editor.example.com/editor.html']}
          notes={
            <p>
              <Trans>
                The editor is opened on one of your projects with its name and id, type json, the
                address of the project's scene and a project token: read access to that one project,
                which can be revoked.
              </Trans>
            </p>
          }
        >
          <p>
            <Trans>
              The shadow-render editor is a separate product that edits how a project's scene is
              rendered, embedded here with the chosen project. No editor address is configured on
              this server.
            </Trans>
          </p>
        </NotConfigured>
      )}
      {editorUrl !== null && projects !== null && projects.length === 0 && (
        <EmptyState title={<Trans>You have no project to open in the editor yet.</Trans>} />
      )}
      {editorUrl !== null && projects !== null && projects.length > 0 && (
        <>
          <Select
            label={<Trans>Project</Trans>}
            placeholder={<Trans>Choose a project</Trans>}
            options={projects.map((candidate) => ({ value: candidate.id, label: candidate.name }))}
            value={project?.id ?? null}
            onValueChange={setProjectId}
          />
          {address !== null && <EmbeddedFrame src={address} title={t`Shadow-render editor`} />}
        </>
      )}
    </section>
  )
}
