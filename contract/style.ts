import { z } from 'zod'
import { recordIdSchema } from './common'
import { formBoolean, formInteger, formNumber } from './form-fields'
import { zodMessage } from './messages'
import { webRoute } from './route'

/**
 * The global style setting of a project (SPEC §3 "Global style setting", §7 `/globalsetting`,
 * issue #19): sky, weather, ground, fog, the three lights, and how the camera moves. One record
 * per project, stored as versioned JSON, so a setting written by another version of the product
 * is refused with a clear code instead of being half-read.
 *
 * Colours are `rgba(r, g, b, a)` text: r, g, b whole numbers 0–255, a 0–1 with at most two
 * decimals (SPEC §5: the opacity slider 0–100 is kept as alpha 0–1 with two decimals). For a
 * light or the fog the alpha scales its strength (0 turns it off).
 *
 * `visual_distance_min/max` are the camera's base distances in metres (SPEC §9: building
 * kind 1 and 1e7); the zoom factors multiply them. `mouse_speed` scales turning and panning.
 */

/** The version of the setting's JSON this product reads and writes. */
export const styleSettingVersion = 1

/** SPEC §9 sky styles: 1 sunny sky, 2 sky box at sun 25°, 3 milky way, 4 rainy. */
export const skyStyles = [1, 2, 3, 4] as const
export type SkyStyleValue = (typeof skyStyles)[number]

/** SPEC §9 weather styles. */
export const weatherStyles = ['sunny', 'rain', 'snow'] as const
export type WeatherStyleValue = (typeof weatherStyles)[number]

/** SPEC §9 ground styles. */
export const groundStyles = ['none', 'grassland', 'stoneGravel', 'ashBlackGravel'] as const
export type GroundStyleValue = (typeof groundStyles)[number]

/** SPEC §9 zoom factor options (minimum and maximum distance) and wheel scales. */
export const minZoomFactorOptions = [1, 0.9, 0.8, 0.65, 0.5, 0.3, 0.1] as const
export const maxZoomFactorOptions = [1, 1.5, 2, 3.5, 5, 7.5, 10] as const
export const wheelScaleOptions = [1, 1.1, 1.25, 1.5, 1.8, 2, 2.5] as const

/** A colour as numbers: r, g, b 0–255, a 0–1. */
export interface RgbaValue {
  r: number
  g: number
  b: number
  a: number
}

const numberPart = String.raw`\s*(-?\d+(?:\.\d+)?)\s*`
const rgbaPattern = new RegExp(
  `^rgba?\\(${numberPart},${numberPart},${numberPart}(?:,${numberPart})?\\)$`,
  'i',
)

/**
 * Reads `rgba(r, g, b, a)` (or `rgb(r, g, b)`, alpha 1): `malformed` when it is not that text,
 * `outOfRange` when a channel is not a whole number 0–255 or the alpha is outside 0–1.
 * The alpha is rounded to two decimals.
 */
export function parseRgba(text: string): RgbaValue | 'malformed' | 'outOfRange' {
  const match = rgbaPattern.exec(text.trim())
  if (!match) return 'malformed'
  const [r, g, b] = [match[1], match[2], match[3]].map(Number) as [number, number, number]
  const a = match[4] === undefined ? 1 : Number(match[4])
  const isChannel = (value: number) => Number.isInteger(value) && value >= 0 && value <= 255
  if (!isChannel(r) || !isChannel(g) || !isChannel(b) || !(a >= 0 && a <= 1)) return 'outOfRange'
  return { r, g, b, a: roundAlpha(a) }
}

/** Alpha kept with two decimals (SPEC §5). */
export function roundAlpha(alpha: number): number {
  return Math.round(Math.min(1, Math.max(0, alpha)) * 100) / 100
}

/** The canonical text of a colour: `rgba(r, g, b, a)`. */
export function formatRgba(color: RgbaValue): string {
  return `rgba(${color.r}, ${color.g}, ${color.b}, ${roundAlpha(color.a)})`
}

/** The opacity slider's value (0–100) of an alpha, and back (SPEC §5). */
export function alphaToOpacity(alpha: number): number {
  return Math.round(roundAlpha(alpha) * 100)
}
export function opacityToAlpha(opacity: number): number {
  return roundAlpha(Math.round(opacity) / 100)
}

/** `#rrggbb` of a colour's r, g, b (for `<input type="color">`). */
export function rgbaToHex(color: RgbaValue): string {
  return `#${[color.r, color.g, color.b].map((value) => value.toString(16).padStart(2, '0')).join('')}`
}

/** A colour from `#rrggbb` and an alpha. */
export function hexToRgba(hex: string, alpha: number): RgbaValue {
  const value = Number.parseInt(hex.replace('#', ''), 16) || 0
  return { r: (value >> 16) & 255, g: (value >> 8) & 255, b: value & 255, a: roundAlpha(alpha) }
}

/** A colour field: canonical `rgba(…)` text out, clear codes for bad text in. */
export const rgbaColorSchema = z.string().transform((text, context) => {
  const parsed = parseRgba(text.length > 64 ? '' : text)
  if (parsed === 'malformed' || parsed === 'outOfRange') {
    context.addIssue({
      code: 'custom',
      message: zodMessage(
        parsed === 'malformed' ? 'style.colorMalformed' : 'style.colorOutOfRange',
      ),
    })
    return z.NEVER
  }
  return formatRgba(parsed)
})

const distanceSchema = formNumber(z.number().positive().max(1e9))

/** Every field of a global style setting (all required in a stored one). */
const styleFields = {
  air_style: formInteger({ min: 1, max: 4 }).transform((value) => value as SkyStyleValue),
  weather_style: z.enum(weatherStyles),
  ground_style: z.enum(groundStyles),
  fog_is_on: formBoolean(),
  fog_color: rgbaColorSchema,
  /** 0–1 (SPEC §5 number block); how thick the fog is, relative to the building's size. */
  fog_density: formNumber(z.number().min(0).max(1)),
  ambient_light_color: rgbaColorSchema,
  directional_light_color: rgbaColorSchema,
  /** 0–1 (number block). */
  directional_light_intensity: formNumber(z.number().min(0).max(1)),
  hemisphere_sky_color: rgbaColorSchema,
  hemisphere_ground_color: rgbaColorSchema,
  hemisphere_intensity: formNumber(z.number().min(0).max(1)),
  visual_distance_min: distanceSchema,
  visual_distance_max: distanceSchema,
  /** Turning and panning speed, 0.1–5 (1 normal). */
  mouse_speed: formNumber(z.number().min(0.1).max(5)),
  min_zoom_factor: formNumber(z.number().min(0.01).max(1)),
  max_zoom_factor: formNumber(z.number().min(1).max(100)),
  wheel_scale: formNumber(z.number().min(0.1).max(10)),
  /** The colour of drawn paths (GML routes). */
  path_color: rgbaColorSchema,
}

/** A version field: anything but this product's version is refused with its own code. */
const versionSchema = z
  .unknown()
  .superRefine((value, context) => {
    if (value !== styleSettingVersion && value !== String(styleSettingVersion)) {
      context.addIssue({ code: 'custom', message: zodMessage('style.unsupportedVersion') })
    }
  })
  .transform(() => styleSettingVersion as typeof styleSettingVersion)

const distanceOrder = (
  setting: { visual_distance_min?: number; visual_distance_max?: number },
  context: z.RefinementCtx,
) => {
  const { visual_distance_min: min, visual_distance_max: max } = setting
  if (min !== undefined && max !== undefined && min > max) {
    context.addIssue({
      code: 'custom',
      path: ['visual_distance_min'],
      message: zodMessage('style.distanceOrder'),
    })
  }
}

/** A whole setting as a client sends it (`add`). */
export const styleSettingInputSchema = z
  .object({ version: versionSchema, ...styleFields })
  .strict()
  .superRefine(distanceOrder)

/** Some fields of a setting (`update`); `version` says which JSON the client speaks. */
export const styleSettingPatchSchema = z
  .object({ version: versionSchema, ...styleFields })
  .partial()
  .required({ version: true })
  .strict()
  .superRefine(distanceOrder)

/** A stored setting as answered. */
export const styleSettingSchema = z.object({
  version: z.literal(styleSettingVersion),
  air_style: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  weather_style: z.enum(weatherStyles),
  ground_style: z.enum(groundStyles),
  fog_is_on: z.boolean(),
  fog_color: z.string(),
  fog_density: z.number(),
  ambient_light_color: z.string(),
  directional_light_color: z.string(),
  directional_light_intensity: z.number(),
  hemisphere_sky_color: z.string(),
  hemisphere_ground_color: z.string(),
  hemisphere_intensity: z.number(),
  visual_distance_min: z.number(),
  visual_distance_max: z.number(),
  mouse_speed: z.number(),
  min_zoom_factor: z.number(),
  max_zoom_factor: z.number(),
  wheel_scale: z.number(),
  path_color: z.string(),
})
export type StyleSetting = z.infer<typeof styleSettingSchema>
export type StyleSettingPatch = Partial<Omit<StyleSetting, 'version'>>

/** The default colour (SPEC §9: rgba white at half opacity). */
export const defaultStyleColor = 'rgba(255, 255, 255, 0.5)'

/**
 * The route's colour until one is chosen: the red the GML route has always been drawn in
 * (SPEC §9's default colour, white at half opacity, would hardly show on a light scene).
 */
export const defaultPathColor = 'rgba(255, 59, 48, 1)'

/** SPEC §9 fallback intensities, used when a stored intensity cannot be read. */
export const directionalIntensityFallback = 0.01
export const hemisphereIntensityFallback = 0.05

/**
 * The setting of a project that has none saved: SPEC §9 default lights (ambient 0x212121,
 * directional 0xffbe37, hemisphere 0x709fcd over 0x4d4b46), the building's base distances
 * (1 m … 1e7 m), factors 1, the sunny sky without weather or ground.
 */
export const defaultStyleSetting: StyleSetting = {
  version: styleSettingVersion,
  air_style: 1,
  weather_style: 'sunny',
  ground_style: 'none',
  fog_is_on: false,
  fog_color: 'rgba(200, 208, 216, 1)',
  fog_density: 0.3,
  ambient_light_color: 'rgba(33, 33, 33, 1)',
  directional_light_color: 'rgba(255, 190, 55, 1)',
  directional_light_intensity: 0.5,
  hemisphere_sky_color: 'rgba(112, 159, 205, 1)',
  hemisphere_ground_color: 'rgba(77, 75, 70, 1)',
  hemisphere_intensity: 0.6,
  visual_distance_min: 1,
  visual_distance_max: 1e7,
  mouse_speed: 1,
  min_zoom_factor: 1,
  max_zoom_factor: 1,
  wheel_scale: 1,
  path_color: defaultPathColor,
}

/** A project's setting as stored, with when it changed. */
export const globalSettingSchema = z.object({
  project_id: z.string(),
  setting: styleSettingSchema,
  updated_at: z.string(),
})
export type GlobalSetting = z.infer<typeof globalSettingSchema>

/** `find` body; a project token opens public previews (body field or header). */
export const findGlobalSettingBodySchema = z.object({
  project_id: recordIdSchema,
  project_token: z.string().max(100).optional(),
})

/**
 * `add` and `update` take the setting as a JSON object, or (form-encoded) as JSON text in the
 * field `setting`.
 */
function settingField<Schema extends z.ZodType>(schema: Schema) {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value
    if (value.length > 16_384) return value
    try {
      return JSON.parse(value) as unknown
    } catch {
      return value
    }
  }, schema)
}

/** `add` body: the whole setting of a project that has none yet. */
export const addGlobalSettingBodySchema = z.object({
  project_id: recordIdSchema,
  setting: settingField(styleSettingInputSchema),
})

/** `update` body: the fields to change; the others keep their saved values. */
export const updateGlobalSettingBodySchema = z.object({
  project_id: recordIdSchema,
  setting: settingField(styleSettingPatchSchema),
})

/** `del` body. */
export const deleteGlobalSettingBodySchema = z.object({ project_id: recordIdSchema })

/** The /web/globalsetting routes (SPEC §7). */
export const styleRoutes = {
  findGlobalSetting: webRoute({
    method: 'POST',
    path: '/web/globalsetting/find',
    auth: 'public',
    summary: "A project's global style setting, or null when it has none saved",
    description: 'A signed-in reader, or a project token (body `project_token` or header).',
    body: findGlobalSettingBodySchema,
    datum: globalSettingSchema.nullable(),
  }),
  addGlobalSetting: webRoute({
    method: 'POST',
    path: '/web/globalsetting/add',
    auth: 'editor',
    summary: "Save a project's first global style setting (all fields)",
    description:
      '`setting` is a JSON object (or JSON text in a form) with `version` 1 and every field. ' +
      'A project that already has one answers 409: use update.',
    body: addGlobalSettingBodySchema,
    datum: globalSettingSchema,
  }),
  updateGlobalSetting: webRoute({
    method: 'POST',
    path: '/web/globalsetting/update',
    auth: 'editor',
    summary: "Change some fields of a project's global style setting",
    description:
      '`setting` holds `version` 1 and the fields to change. A project without a saved ' +
      'setting starts from the defaults.',
    body: updateGlobalSettingBodySchema,
    datum: globalSettingSchema,
  }),
  deleteGlobalSetting: webRoute({
    method: 'POST',
    path: '/web/globalsetting/del',
    auth: 'editor',
    summary: "Delete a project's global style setting (the defaults apply again)",
    body: deleteGlobalSettingBodySchema,
    datum: z.object({ deleted: z.boolean() }),
  }),
}
