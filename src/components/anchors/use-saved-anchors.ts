import { useCallback, useEffect, useMemo, useState } from 'react'
import {
  type AddLocationMappingBody,
  addLocationAnchor,
  deleteLocationAnchor,
  findLocationAnchors,
  type LocationAnchor,
} from '../../api/location'
import { type Anchor, solveAnchors } from '../../../workers/geodesy/anchor-solver'
import { toast } from '../../ui'
import { reasonText } from '../feedback/error-text'

/** The anchor calls a location screen makes (component tests pass in-memory ones). */
export interface AnchorCalls {
  find: (projectId: string, target: string) => Promise<LocationAnchor[]>
  add: (body: AddLocationMappingBody) => Promise<LocationAnchor>
  remove: (id: string) => Promise<void>
}

/** The real `/poi` location mapping calls. */
export const defaultAnchorCalls: AnchorCalls = {
  find: findLocationAnchors,
  add: addLocationAnchor,
  remove: deleteLocationAnchor,
}

/** What an anchor is added with: everything but the project and the model it places. */
export type NewAnchor = Omit<AddLocationMappingBody, 'project_id' | 'target'>

/**
 * The saved anchor points of one model (`target`: '' the building's own model, a tileset id in
 * a city) and their fit, solved by the one anchor solver each time the list changes. Adding and
 * deleting go to the server first; the list shows only what it saved. A failure is toasted with
 * the server's reason.
 */
export function useSavedAnchors(
  calls: AnchorCalls,
  projectId: string | null,
  target: string | null,
) {
  const [anchors, setAnchors] = useState<LocationAnchor[]>([])
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading')
  const [isBusy, setIsBusy] = useState(false)

  useEffect(() => {
    setAnchors([])
    if (projectId === null || target === null) return
    // an answer for a model the user left meanwhile is dropped
    let isCurrent = true
    setStatus('loading')
    calls.find(projectId, target).then(
      (found) => {
        if (!isCurrent) return
        setAnchors(found)
        setStatus('ready')
      },
      (error: unknown) => {
        if (!isCurrent) return
        setStatus('error')
        toast.error(reasonText(error))
      },
    )
    return () => {
      isCurrent = false
    }
  }, [calls, projectId, target])

  const fit = useMemo(
    () => solveAnchors(anchors.map(({ x, y, lng, lat }): Anchor => ({ x, y, lng, lat }))),
    [anchors],
  )

  const add = useCallback(
    async (anchor: NewAnchor): Promise<boolean> => {
      if (projectId === null || target === null) return false
      setIsBusy(true)
      try {
        const saved = await calls.add({ ...anchor, project_id: projectId, target })
        setAnchors((current) => [...current, saved])
        return true
      } catch (error) {
        toast.error(reasonText(error))
        return false
      } finally {
        setIsBusy(false)
      }
    },
    [calls, projectId, target],
  )

  const remove = useCallback(
    async (id: string) => {
      setIsBusy(true)
      try {
        await calls.remove(id)
        setAnchors((current) => current.filter((anchor) => anchor.id !== id))
      } catch (error) {
        toast.error(reasonText(error))
      } finally {
        setIsBusy(false)
      }
    },
    [calls],
  )

  return { anchors, status, isBusy, fit, add, remove }
}

/**
 * The placement heading (degrees clockwise from north of the model's +y axis, 0..360) of a fit
 * that turns the model's x axis `rotation` degrees counter-clockwise from east: +y then points
 * `rotation + 90` counter-clockwise from east, which is `-rotation` clockwise from north.
 */
export function headingOf(rotationDegrees: number): number {
  return ((-rotationDegrees % 360) + 360) % 360
}
