import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from 'wouter'
import { errorText } from '../../components/feedback/error-text'
import { ErrorState, Spinner } from '../../ui'
import { EmbeddedFrame } from './EmbeddedFrame'
import { useEmbeddedProducts } from './embedded-products'
import { NotConfigured } from './NotConfigured'
import './tb.css'

/** Which ThingsBoard page. */
export type ThingsboardView = 'devices' | 'ruleChains'

/**
 * `/tbPage/devices` and `/tbPage/ruleChains` (SPEC §2; issue 17 item 9): the device list or the
 * rule chains of the configured ThingsBoard, embedded; without one, how to configure it.
 */
export function ThingsboardPage({ view }: { view: ThingsboardView }) {
  const { t } = useLingui()
  const state = useEmbeddedProducts()
  const heading =
    view === 'devices' ? (
      <Trans>IoT platform: devices</Trans>
    ) : (
      <Trans>IoT platform: rule chains</Trans>
    )
  return (
    <section className="ts-tb-page" data-testid={`tb-${view}`}>
      <h1 className="ts-page-title">{heading}</h1>
      {state.status === 'loading' && <Spinner />}
      {state.status === 'error' && <ErrorState message={errorText(state.error)} />}
      {state.status === 'ready' && state.products.thingsboard !== null && (
        <EmbeddedFrame
          src={
            view === 'devices'
              ? state.products.thingsboard.devicesUrl
              : state.products.thingsboard.ruleChainsUrl
          }
          title={view === 'devices' ? t`ThingsBoard devices` : t`ThingsBoard rule chains`}
        />
      )}
      {state.status === 'ready' && state.products.thingsboard === null && (
        <NotConfigured
          settings={[
            'THINGSBOARD_URL=https://thingsboard.example.com',
            '# THINGSBOARD_DEVICES_PATH=/entities/devices',
            '# THINGSBOARD_RULE_CHAINS_PATH=/ruleChains',
          ]}
          notes={
            <p>
              <Trans>
                Until then, each project's devices are managed in the project itself, under POI →
                IoT devices: provisioning, access tokens, live status, alarms and telemetry work
                without ThingsBoard.
              </Trans>{' '}
              <Link href="/projectManage/bim">
                <Trans>Go to the projects</Trans>
              </Link>
            </p>
          }
        >
          <p>
            {view === 'devices' ? (
              <Trans>
                This page shows the device list of a ThingsBoard server (an IoT platform), embedded
                in the console. No ThingsBoard address is configured on this server.
              </Trans>
            ) : (
              <Trans>
                This page shows the rule chains of a ThingsBoard server (an IoT platform), embedded
                in the console. No ThingsBoard address is configured on this server.
              </Trans>
            )}
          </p>
        </NotConfigured>
      )}
    </section>
  )
}

/** `/tbPage/devices`. */
export function TbDevicesPage() {
  return <ThingsboardPage view="devices" />
}

/** `/tbPage/ruleChains`. */
export function TbRuleChainsPage() {
  return <ThingsboardPage view="ruleChains" />
}
