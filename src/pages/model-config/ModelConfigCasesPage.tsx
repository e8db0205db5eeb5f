import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import { findProjectCases, type Project } from '../../api/project'
import { navigateHash } from '../../app/hash-location'
import type { PageProps } from '../../app/page-props'
import { errorText, showErrorToast } from '../../components/feedback/error-text'
import { enterProject } from '../../components/project/enter-project'
import { LoadStates } from '../../ui'
import './model-config-cases.css'

/** The model-config tools, as the first tiles of the hub. */
const toolTiles: ReadonlyArray<{
  path: string
  title: MessageDescriptor
  text: MessageDescriptor
}> = [
  {
    path: '/modelConfig/merge',
    title: msg`Structure merge`,
    text: msg`Shell, floors, maps and a preview into one building`,
  },
  {
    path: '/modelConfig/add',
    title: msg`Structure add`,
    text: msg`New floors or a new shell for a building project`,
  },
  {
    path: '/modelConfig/conversion',
    title: msg`Format conversion`,
    text: msg`DAE, FBX and glTF files to SBM, one or many`,
  },
]

/**
 * `/modelConfig`, the model-config menu's case list (SPEC §2 "a metro-style case list"): the
 * tools and the official cases as tiles of a grid, the first case a wide tile, each case tile
 * showing its cover, name and kind. A tile opens its case (or tool) on click or Enter.
 */
export function ModelConfigCasesPage(
  props: Partial<PageProps> & {
    load?: typeof findProjectCases
    open?: (project: Project) => Promise<void>
  },
) {
  const load = props.load ?? findProjectCases
  const open = props.open ?? ((project: Project) => enterProject(project))
  const { i18n, t } = useLingui()
  const [cases, setCases] = useState<Project[] | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [openingId, setOpeningId] = useState<string | null>(null)

  const reload = useCallback(
    async (signal?: AbortSignal) => {
      try {
        setCases(await load(signal))
        setError(null)
      } catch (failure) {
        if (!signal?.aborted) setError(failure)
      }
    },
    [load],
  )
  useEffect(() => {
    const controller = new AbortController()
    void reload(controller.signal)
    return () => controller.abort()
  }, [reload])

  async function openCase(project: Project) {
    if (openingId) return
    setOpeningId(project.id)
    try {
      await open(project)
    } catch (failure) {
      showErrorToast(failure)
    } finally {
      setOpeningId(null)
    }
  }

  return (
    <div className="ts-metro" data-testid="page-modelConfigCases">
      <h1 className="ts-page-title">
        <Trans>Model configuration</Trans>
      </h1>
      <ul className="ts-metro__grid" aria-label={t`Tools`}>
        {toolTiles.map((tile) => (
          <li key={tile.path} className="ts-metro__tile ts-metro__tile--tool">
            <button type="button" onClick={() => navigateHash(tile.path)}>
              <span className="ts-metro__title">{i18n._(tile.title)}</span>
              <span className="ts-metro__text">{i18n._(tile.text)}</span>
            </button>
          </li>
        ))}
      </ul>
      <h2 className="ts-metro__heading">
        <Trans>Cases</Trans>
      </h2>
      <LoadStates
        data={cases}
        error={error === null ? null : errorText(error)}
        onRetry={() => void reload()}
        isEmpty={(loaded) => loaded.length === 0}
        emptyTitle={<Trans>No cases yet</Trans>}
      >
        {(loaded) => (
          <ul className="ts-metro__grid" data-testid="model-config-cases">
            {loaded.map((project, index) => (
              <CaseTile
                key={project.id}
                project={project}
                isWide={index === 0}
                isOpening={openingId === project.id}
                onOpen={() => void openCase(project)}
              />
            ))}
          </ul>
        )}
      </LoadStates>
    </div>
  )
}

/** One case: its cover filling the tile, its name and kind over it. */
function CaseTile({
  project,
  isWide,
  isOpening,
  onOpen,
}: {
  project: Project
  isWide: boolean
  isOpening: boolean
  onOpen: () => void
}) {
  const { t } = useLingui()
  const name = project.name
  const cover = project.prewiewpath_thumb ?? project.prewiewpath
  return (
    <li
      className={`ts-metro__tile ts-metro__tile--${project.kind}${isWide ? ' ts-metro__tile--wide' : ''}`}
      data-testid="model-config-case"
    >
      <button
        type="button"
        onClick={onOpen}
        aria-busy={isOpening}
        aria-label={t`Open the case ${name}`}
      >
        {cover && <img src={cover} alt="" loading="lazy" className="ts-metro__cover" />}
        <span className="ts-metro__title">{project.name}</span>
        <span className="ts-metro__text">
          {project.kind === 'city' ? <Trans>City scene</Trans> : <Trans>Building scene</Trans>}
        </span>
      </button>
    </li>
  )
}
