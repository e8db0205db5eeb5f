import type { ScenePoi } from '../../api/poi-commands'
import type { PlainSprite } from './plain-sprite-layer'
import type { PoiCluster } from './poi-clusters'
import { type PoiIcon, poiMarkerLayout } from './poi-layers'
import { type AtlasSlot, SpriteAtlas } from './sprite-atlas'

/** Drawn as deck's TextLayer drew them: its default font, a white halo around dark labels. */
const fontFamily = 'Monaco, monospace'
const labelColor = 'rgb(33, 37, 41)'
const haloColor = 'rgba(255, 255, 255, 0.9)'
const haloPixels = 1
const countFontPixels = 12
const white = [255, 255, 255, 255] as const

/** Atlas pixels per CSS pixel: sharp on screens of up to twice the density. */
function screenScale(): number {
  return Math.min(2, Math.max(1, Math.ceil(globalThis.devicePixelRatio || 1)))
}

/**
 * The pictures of the city's POI markers in three atlases (template icons, labels, cluster
 * counts), each drawn by one `PlainSpriteLayer`. Icons load once per template picture; a
 * marker whose picture is still loading (or failed) is not drawn, as deck's IconLayer did not.
 */
export class PoiSprites {
  readonly icons = new SpriteAtlas(1024, 1024, 2)
  readonly labels: SpriteAtlas
  readonly counts: SpriteAtlas
  private readonly images = new Map<string, ImageBitmap | 'loading' | 'failed'>()

  constructor(
    /** A template's picture has loaded: the markers using it can be drawn now. */
    private readonly onIconLoaded: () => void,
  ) {
    const scale = screenScale()
    this.labels = new SpriteAtlas(2048, 2048, scale)
    this.counts = new SpriteAtlas(1024, 512, scale)
  }

  /** The icon sprites of these markers (`alpha` 0–255: ghosts are faded). */
  iconSprites(icons: readonly PoiIcon[], alpha: number): PlainSprite[] {
    const half = poiMarkerLayout.iconSizePixels / 2
    const slots = this.icons.slotsOf(icons, (icon) => this.iconSlot(icon.iconUrl))
    const color = [255, 255, 255, alpha]
    return spritesOf(icons, slots, (icon, slot) => ({
      position: icon.poi.position,
      slot,
      offset: [-half, -half],
      color,
    }))
  }

  /** The label sprites of these POIs: centred under the marker. */
  labelSprites(pois: readonly ScenePoi[]): PlainSprite[] {
    const fontPixels = poiMarkerLayout.fontSizePixels
    const height = Math.ceil(fontPixels * 1.2) + haloPixels * 2
    const slots = this.labels.slotsOf(pois, (poi) =>
      textSlot(this.labels, poi.label, fontPixels, height, (context, width) => {
        context.lineJoin = 'round'
        context.lineWidth = haloPixels * 2
        context.strokeStyle = haloColor
        context.strokeText(poi.label, width / 2, haloPixels)
        context.fillStyle = labelColor
        context.fillText(poi.label, width / 2, haloPixels)
      }),
    )
    return spritesOf(pois, slots, (poi, slot) => ({
      position: poi.position,
      slot,
      offset: [-slot.width / 2, poiMarkerLayout.labelOffsetPixels - haloPixels],
      color: white,
    }))
  }

  /** The count sprites of these clusters: centred on the cluster. */
  countSprites(clusters: readonly PoiCluster[]): PlainSprite[] {
    const height = Math.ceil(countFontPixels * 1.2)
    const slots = this.counts.slotsOf(clusters, (cluster) =>
      textSlot(this.counts, cluster.countText, countFontPixels, height, (context, width) => {
        context.fillStyle = '#ffffff'
        context.fillText(cluster.countText, width / 2, 0)
      }),
    )
    return spritesOf(clusters, slots, (cluster, slot) => ({
      position: cluster.position,
      slot,
      offset: [-slot.width / 2, -slot.height / 2],
      color: white,
    }))
  }

  /** Whether sprites made before were made in these atlases' current generations. */
  generations(): string {
    return `${this.icons.generation}:${this.labels.generation}:${this.counts.generation}`
  }

  dispose(): void {
    this.icons.dispose()
    this.labels.dispose()
    this.counts.dispose()
    for (const image of this.images.values()) if (typeof image === 'object') image.close()
    this.images.clear()
  }

  private iconSlot(url: string): AtlasSlot | null {
    const image = this.images.get(url)
    if (image === undefined) this.load(url)
    if (typeof image !== 'object') return null
    const size = poiMarkerLayout.iconSizePixels
    return this.icons.slotOf(url, size, size, (context) =>
      context.drawImage(image, 0, 0, size, size),
    )
  }

  private load(url: string): void {
    this.images.set(url, 'loading')
    fetch(url)
      .then((response) => {
        if (!response.ok) throw new Error(`${response.status}`)
        return response.blob()
      })
      .then((blob) => createImageBitmap(blob))
      .then(
        (bitmap) => {
          this.images.set(url, bitmap)
          this.onIconLoaded()
        },
        () => this.images.set(url, 'failed'),
      )
  }
}

/** The slot of a line of text, `paint` drawing it centred at the top of its box. */
function textSlot(
  atlas: SpriteAtlas,
  text: string,
  fontPixels: number,
  height: number,
  paint: (context: SpriteAtlas['context'], width: number) => void,
): AtlasSlot | null {
  if (text === '') return null
  // Known text is not measured again: every view update asks for the slots of all labels and
  // counts around the view, and setting the font and measuring each showed in the slow frames
  // of an orbit over 100,000 POIs.
  const known = atlas.knownSlot(text)
  if (known) return known
  const font = `${fontPixels}px ${fontFamily}`
  atlas.context.font = font
  const width = Math.ceil(atlas.context.measureText(text).width) + haloPixels * 2 + 2
  return atlas.slotOf(text, width, height, (context) => {
    context.font = font
    context.textAlign = 'center'
    context.textBaseline = 'top'
    paint(context, width)
  })
}

function spritesOf<Item>(
  items: readonly Item[],
  slots: readonly (AtlasSlot | null)[],
  spriteOf: (item: Item, slot: AtlasSlot) => PlainSprite,
): PlainSprite[] {
  const sprites: PlainSprite[] = []
  for (let index = 0; index < items.length; index++) {
    const slot = slots[index]
    if (slot) sprites.push(spriteOf(items[index]!, slot))
  }
  return sprites
}
