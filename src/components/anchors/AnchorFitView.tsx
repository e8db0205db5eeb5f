import '../region-list/region-list.css'
import { Trans, useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import {
  type AnchorFit,
  type AnchorIssue,
  minAnchors,
} from '../../../workers/geodesy/anchor-solver'
import { headingOf } from './use-saved-anchors'

/** Props of {@link AnchorFitView}. */
export interface AnchorFitViewProps {
  count: number
  result: { ok: true; fit: AnchorFit } | { ok: false; issue: AnchorIssue }
  /** What the fit is for (e.g. "Place the tileset"), shown under it when it is solved. */
  children?: ReactNode
}

/**
 * What the anchors say (SPEC §5, §8): 'Please add an anchor point first.' with none, how many
 * more are needed, that collinear anchors leave the orientation undetermined; else the solved
 * origin, heading, scale and RMS residual.
 */
export function AnchorFitView({ count, result, children }: AnchorFitViewProps) {
  const { t, i18n } = useLingui()
  const number = new Intl.NumberFormat(i18n.locale, { maximumFractionDigits: 3 })
  return (
    <section className="ts-anchors__fit" aria-label={t`Location`} data-testid="anchor-fit">
      {!result.ok ? (
        <p className="ts-region__issue" role="alert">
          {result.issue.code === 'tooFewAnchors' ? (
            count === 0 ? (
              <Trans>Please add an anchor point first.</Trans>
            ) : (
              <Trans>
                Add at least {minAnchors} anchor points ({count} so far).
              </Trans>
            )
          ) : result.issue.code === 'anchorsCollinear' ? (
            <Trans>
              The anchor points lie on one line, so the orientation is undetermined. Add one off the
              line.
            </Trans>
          ) : (
            <Trans>An anchor point is outside the map.</Trans>
          )}
        </p>
      ) : (
        <>
          <dl className="ts-region__measure">
            <dt>
              <Trans>Origin</Trans>
            </dt>
            <dd data-testid="anchor-origin">
              {result.fit.originLngLat[0].toFixed(7)}, {result.fit.originLngLat[1].toFixed(7)}
            </dd>
            <dt>
              <Trans>Heading</Trans>
            </dt>
            <dd>{number.format(headingOf(result.fit.rotationAtOriginDegrees))}°</dd>
            <dt>
              <Trans>Scale</Trans>
            </dt>
            <dd>{number.format(result.fit.scale)}</dd>
            <dt>
              <Trans>RMS residual</Trans>
            </dt>
            <dd data-testid="anchor-rms">{number.format(result.fit.rmsMeters)} m</dd>
          </dl>
          {children}
        </>
      )}
    </section>
  )
}
