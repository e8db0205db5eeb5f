import type { I18n, MessageDescriptor } from '@lingui/core'
import { useEffect, useRef, useState } from 'react'
import type { MergeStatusDatum } from '../../api/model-config'
import { findProjects, type Project } from '../../api/project'
import { errorText } from '../../components/feedback/error-text'

/** What a structure merge's and a structure add's statuses share. */
export type StructureJobStatus = Pick<
  MergeStatusDatum,
  'id' | 'state' | 'progress' | 'steps' | 'error' | 'warnings'
>

/** Where a merge or an add stands, as its page shows it. */
export type StructureJobPhase<Status extends StructureJobStatus> =
  | { kind: 'idle' }
  | { kind: 'uploading'; fraction: number }
  | { kind: 'working'; status: Status }
  | { kind: 'ended'; status: Status }
  | { kind: 'refused'; message: string }

/** How often a running job is asked for its steps. */
const pollIntervalMs = 500

/**
 * A merge or an add, from the upload to its end: the upload's real progress, then the server's
 * steps, asked for every half second until the job ends (or the page goes away).
 */
export function useStructureJob<Status extends StructureJobStatus>(
  findStatus: (id: string, signal: AbortSignal) => Promise<Status>,
) {
  const [phase, setPhase] = useState<StructureJobPhase<Status>>({ kind: 'idle' })
  const pollRef = useRef<AbortController | null>(null)
  useEffect(() => () => pollRef.current?.abort(), [])

  async function follow(id: string, signal: AbortSignal, onSucceeded: (status: Status) => void) {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, pollIntervalMs))
      if (signal.aborted) return
      try {
        const status = await findStatus(id, signal)
        if (status.state === 'queued' || status.state === 'running') {
          setPhase({ kind: 'working', status })
          continue
        }
        setPhase({ kind: 'ended', status })
        if (status.state === 'succeeded') onSucceeded(status)
        return
      } catch (error) {
        if (signal.aborted) return
        setPhase({ kind: 'refused', message: errorText(error) })
        return
      }
    }
  }

  /** Sends the job through `send` (which reports the upload), then follows it to its end. */
  async function start(
    send: (onProgress: (sentBytes: number, totalBytes: number) => void) => Promise<Status>,
    handlers: { onSucceeded(status: Status): void; onRefused?(error: unknown): void },
  ) {
    setPhase({ kind: 'uploading', fraction: 0 })
    try {
      const status = await send((sent, total) =>
        setPhase({ kind: 'uploading', fraction: total > 0 ? sent / total : 0 }),
      )
      setPhase({ kind: 'working', status })
      pollRef.current?.abort()
      const controller = new AbortController()
      pollRef.current = controller
      void follow(status.id, controller.signal, handlers.onSucceeded)
    } catch (error) {
      handlers.onRefused?.(error)
      setPhase({ kind: 'refused', message: errorText(error) })
    }
  }

  return {
    phase,
    isBusy: phase.kind === 'uploading' || phase.kind === 'working',
    start,
    reset: () => setPhase({ kind: 'idle' }),
  }
}

/** The building projects a merge may install into and an add may change (the first 100). */
export function useBuildingProjects(onError: (error: unknown) => void): Project[] {
  const [projects, setProjects] = useState<Project[]>([])
  const onErrorRef = useRef(onError)
  onErrorRef.current = onError
  useEffect(() => {
    const controller = new AbortController()
    findProjects({ kind: 'building', pageSize: 100 }, controller.signal).then(
      (page) => setProjects(page.list),
      (error: unknown) => {
        if (!controller.signal.aborted) onErrorRef.current(error)
      },
    )
    return () => controller.abort()
  }, [])
  return projects
}

/** A form's problems in the user's language, by field. */
export function problemTexts<Field extends string>(
  found: Partial<Record<Field, MessageDescriptor>>,
  i18n: I18n,
): Partial<Record<Field, string>> {
  return Object.fromEntries(
    Object.entries(found).map(([field, descriptor]) => [
      field,
      i18n._(descriptor as MessageDescriptor),
    ]),
  ) as Partial<Record<Field, string>>
}

/** One toast line of a form's problems, each said once. */
export function problemsLine(problems: Partial<Record<string, string>>): string {
  return [...new Set(Object.values(problems))].join(' ')
}
