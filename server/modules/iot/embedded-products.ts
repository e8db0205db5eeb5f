import { z } from 'zod'
import type { EmbeddedProductsDatum } from '../../../contract/embedded-products'

/**
 * The external products the console embeds (issue 17 item 9; SPEC §2 `/tbPage/devices`,
 * `/tbPage/ruleChains`, the shadow-render editor; decisions.md "IoT and embedded products"):
 * a ThingsBoard and a shadow-render editor at configured addresses (docs/configuration.md
 * "Embedded products"). Their origins are the only ones added to the CSP's `frame-src` for them.
 */
export interface EmbeddedProductsSettings {
  /** ThingsBoard's web UI, e.g. `https://tb.example.com`, or undefined. */
  thingsboardUrl: string | undefined
  /** The path of its device list below `thingsboardUrl`. */
  thingsboardDevicesPath: string
  /** The path of its rule chains below `thingsboardUrl`. */
  thingsboardRuleChainsPath: string
  /** The shadow-render editor's page, or undefined. */
  shadowEditorUrl: string | undefined
}

const httpAddress = (name: string) =>
  z.string().refine((text) => {
    try {
      const url = new URL(text)
      return (
        ['http:', 'https:'].includes(url.protocol) && url.username === '' && url.password === ''
      )
    } catch {
      return false
    }
  }, `${name} must be an http:// or https:// address without a user name or password`)

const pathText = (name: string, fallback: string) =>
  z
    .string()
    .regex(/^\/[A-Za-z0-9/_.~%-]*$/, `${name} must be a path starting with / (e.g. ${fallback})`)
    .default(fallback)

/** The environment variables of these settings, merged into server/config.ts's schema. */
export const embeddedProductsEnvironmentShape = {
  THINGSBOARD_URL: httpAddress('THINGSBOARD_URL').optional(),
  // ThingsBoard 3.x's pages; older releases used /devices
  THINGSBOARD_DEVICES_PATH: pathText('THINGSBOARD_DEVICES_PATH', '/entities/devices'),
  THINGSBOARD_RULE_CHAINS_PATH: pathText('THINGSBOARD_RULE_CHAINS_PATH', '/ruleChains'),
  SHADOW_EDITOR_URL: httpAddress('SHADOW_EDITOR_URL').optional(),
}

/** The settings from the parsed variables. */
export function embeddedProductsSettingsOf(values: {
  THINGSBOARD_URL?: string | undefined
  THINGSBOARD_DEVICES_PATH: string
  THINGSBOARD_RULE_CHAINS_PATH: string
  SHADOW_EDITOR_URL?: string | undefined
}): EmbeddedProductsSettings {
  return {
    thingsboardUrl: values.THINGSBOARD_URL,
    thingsboardDevicesPath: values.THINGSBOARD_DEVICES_PATH,
    thingsboardRuleChainsPath: values.THINGSBOARD_RULE_CHAINS_PATH,
    shadowEditorUrl: values.SHADOW_EDITOR_URL,
  }
}

/** The origins the console may frame: each configured product's. */
export function embeddedFrameOrigins(settings: EmbeddedProductsSettings): string[] {
  const origins = [settings.thingsboardUrl, settings.shadowEditorUrl]
    .filter((address): address is string => address !== undefined)
    .map((address) => new URL(address).origin)
  return [...new Set(origins)]
}

/** An address below a base (its path kept, `path` appended). */
function below(base: string, path: string): string {
  const url = new URL(base)
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`
  return url.toString()
}

/** What `/web/system/embeddedProducts` answers. */
export function embeddedProductsOf(settings: EmbeddedProductsSettings): EmbeddedProductsDatum {
  const { thingsboardUrl, shadowEditorUrl } = settings
  return {
    thingsboard:
      thingsboardUrl === undefined
        ? null
        : {
            devicesUrl: below(thingsboardUrl, settings.thingsboardDevicesPath),
            ruleChainsUrl: below(thingsboardUrl, settings.thingsboardRuleChainsPath),
          },
    shadowEditor: shadowEditorUrl === undefined ? null : { url: shadowEditorUrl },
  }
}
