import { Trans, useLingui } from '@lingui/react/macro'
import { useId, useState } from 'react'
import { useSnapshot } from 'valtio'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { Button, TextField, toast } from '../../../ui'
import { buildingSession, type RouteEndChoice } from '../building-session'
import { gmlMessages } from './gml-messages'
import { filterStates, stateLabel, useGmlStates } from './gml-states'
import type { RouteEnd } from './route-ends'
import { checkRouteRequest, formatLengthMeters } from './route-check'

/**
 * The shortest-path tool (SPEC §2 visit tools, §5, §8): choose the start and the end by a click
 * in the scene (snapped to the nearest State by the engine) or from a searchable State list,
 * find the route (drawn on top of the building), and read its steps, floor changes and length.
 */
export function ShortestPathTool() {
  const { t, i18n } = useLingui()
  const engine = useEngine()
  const session = useSnapshot(buildingSession)
  const { building } = useSnapshot(sceneStore)
  const gml = building.gml
  const states = useGmlStates(engine, gml.networkRevision, gml.isLoaded)
  const [search, setSearch] = useState('')
  const [isRouting, setRouting] = useState(false)
  const startListId = useId()
  const endListId = useId()
  const stateById = new Map(states?.map((state) => [state.stateId, state]))
  const matching = states ? filterStates(states, search) : []

  /**
   * The options of one end: the States matching the search, and the end's own State even when
   * it does not match (a select whose value has no option shows nothing).
   */
  function optionsFor(end: RouteEnd): { stateId: string; label: string }[] {
    const options = matching.map((state) => ({ stateId: state.stateId, label: stateLabel(state) }))
    const choice = session[end]
    if (choice?.kind !== 'state' || matching.some((state) => state.stateId === choice.stateId)) {
      return options
    }
    return [{ stateId: choice.stateId, label: choice.label }, ...options]
  }

  function choose(end: RouteEnd, stateId: string) {
    const state = stateById.get(stateId)
    buildingSession[end] = state ? { kind: 'state', stateId, label: stateLabel(state) } : null
  }

  function pickInScene(end: RouteEnd) {
    if (!gml.isLoaded) {
      toast.warning(i18n._(gmlMessages.loadFirst))
      return
    }
    buildingSession.clickPurpose = buildingSession.clickPurpose === end ? 'inspect' : end
  }

  async function findRoute() {
    const check = checkRouteRequest(gml.isLoaded, session.routeStart, session.routeEnd)
    if (!check.canRoute) {
      toast.warning(i18n._(check.message))
      return
    }
    setRouting(true)
    try {
      const answer = await engine.run('gml.route', { from: check.from, to: check.to })
      if (answer.stateIds === null) {
        toast.warning(i18n._(gmlMessages.reselectEnds))
        return
      }
      // A point still waiting for its snap answer becomes the State the route snapped it to.
      const first = answer.steps[0]
      const last = answer.steps[answer.steps.length - 1]
      if (buildingSession.routeStart?.kind === 'point' && first)
        buildingSession.routeStart = {
          kind: 'state',
          stateId: first.stateId,
          label: stateLabel(first),
        }
      if (buildingSession.routeEnd?.kind === 'point' && last)
        buildingSession.routeEnd = { kind: 'state', stateId: last.stateId, label: stateLabel(last) }
      if (answer.stateIds.length < 2) toast.warning(i18n._(gmlMessages.reselectEnds))
    } catch {
      toast.error(i18n._(gmlMessages.notLoaded))
    } finally {
      setRouting(false)
    }
  }

  function clearRoute() {
    if (!gml.route) {
      toast.warning(i18n._(gmlMessages.drawRouteFirst))
      return
    }
    void engine.run('gml.clearRoute').catch(() => undefined)
  }

  const route = gml.route
  const lengthText = route ? formatLengthMeters(route.lengthMeters) : ''
  return (
    <fieldset className="ts-bim4-fieldset ts-bim4-route">
      <legend>
        <Trans>Shortest path</Trans>
      </legend>
      <TextField
        label={<Trans>Search spaces</Trans>}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        disabled={!gml.isLoaded}
      />
      {(['routeStart', 'routeEnd'] as const).map((end) => {
        const choice = session[end]
        const listId = end === 'routeStart' ? startListId : endListId
        const isPicking = session.clickPurpose === end
        return (
          <div key={end} className="ts-bim4-route__end" data-testid={`${end}-choice`}>
            <label htmlFor={listId} className="ts-bim4-route__label">
              {end === 'routeStart' ? <Trans>Start</Trans> : <Trans>End</Trans>}
            </label>
            <select
              id={listId}
              className="ts-bim4-route__select"
              value={choice?.kind === 'state' ? choice.stateId : ''}
              disabled={!gml.isLoaded || states === null}
              onChange={(event) => choose(end, event.target.value)}
            >
              <option value="">{choiceText(choice, t`Choose a space`)}</option>
              {optionsFor(end).map((option) => (
                <option key={option.stateId} value={option.stateId}>
                  {option.label}
                </option>
              ))}
            </select>
            <Button
              variant={isPicking ? 'primary' : 'secondary'}
              aria-pressed={isPicking}
              onClick={() => pickInScene(end)}
            >
              {end === 'routeStart' ? <Trans>Pick start</Trans> : <Trans>Pick end</Trans>}
            </Button>
          </div>
        )
      })}
      <div className="ts-bim4-route__actions">
        <Button onClick={() => void findRoute()} isBusy={isRouting}>
          <Trans>Find route</Trans>
        </Button>
        <Button variant="secondary" onClick={clearRoute}>
          <Trans>Clear route</Trans>
        </Button>
      </div>
      {route && (
        <section className="ts-bim4-route__result" aria-label={t`Route`} data-testid="route-result">
          <p className="ts-bim4-route__length" data-testid="route-length">
            <Trans>Total length: {lengthText} m</Trans>
          </p>
          <ol className="ts-bim4-route__steps">
            {route.steps.map((step) => {
              const change = route.floorChanges.find(
                (candidate) => candidate.atStateId === step.stateId,
              )
              const fromStorey = change?.fromStorey ?? ''
              const toStorey = change?.toStorey ?? ''
              return (
                <li key={step.stateId} data-state-id={step.stateId}>
                  <span className="ts-bim4-route__step-name">{step.name}</span>
                  {step.storey && <span className="ts-bim4-muted"> · {step.storey}</span>}
                  {change && (
                    <span className="ts-bim4-route__floor-change">
                      <Trans>
                        Floor change {fromStorey} → {toStorey}
                      </Trans>
                    </span>
                  )}
                </li>
              )
            })}
          </ol>
        </section>
      )}
    </fieldset>
  )
}

function choiceText(choice: RouteEndChoice | null, fallback: string): string {
  return choice ? choice.label : fallback
}
