import { Trans } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import type { ObliquePhotograph, TilesetPlacement } from '../../../api/city'
import { Button, FormDialog, NumberInput } from '../../../ui'
import { type CityActionContext, placeTileset } from '../city-actions'

/** Props of {@link PlacementDialog}. */
export interface PlacementDialogProps {
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  tileset: ObliquePhotograph
  /** Where a tileset that was never placed starts: the map's current centre. */
  fallbackCenter: { lng: number; lat: number }
  context: CityActionContext
}

/** The placement form's starting values. */
export function initialPlacement(
  tileset: Pick<ObliquePhotograph, 'placement'>,
  fallbackCenter: { lng: number; lat: number },
): TilesetPlacement {
  return (
    tileset.placement ?? {
      lng: fallbackCenter.lng,
      lat: fallbackCenter.lat,
      height_offset: 0,
      heading: 0,
    }
  )
}

/**
 * Places a tileset on the globe: longitude, latitude, a height offset in metres and a heading
 * in degrees (for tilesets in local metres without georeference; a georeferenced tileset can be
 * moved too, or given back its own place).
 */
export function PlacementDialog({
  isOpen,
  onOpenChange,
  tileset,
  fallbackCenter,
  context,
}: PlacementDialogProps) {
  const [placement, setPlacement] = useState(() => initialPlacement(tileset, fallbackCenter))
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form restarts from the saved values each time it opens, not on every camera move
  useEffect(() => {
    if (isOpen) setPlacement(initialPlacement(tileset, fallbackCenter))
  }, [isOpen, tileset])

  const tilesetName = tileset.name
  const set = (key: keyof TilesetPlacement) => (value: number) =>
    setPlacement((previous) => ({ ...previous, [key]: value }))

  return (
    <FormDialog
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title={<Trans>Placement of {tilesetName}</Trans>}
      submitLabel={<Trans>Save</Trans>}
      onSubmit={async () => {
        if (await placeTileset(context, tileset, placement)) onOpenChange(false)
      }}
    >
      <NumberInput
        label={<Trans>Longitude</Trans>}
        value={placement.lng}
        onChange={set('lng')}
        min={-180}
        max={180}
        step={0.0001}
        precision={7}
        unit="°"
      />
      <NumberInput
        label={<Trans>Latitude</Trans>}
        value={placement.lat}
        onChange={set('lat')}
        min={-90}
        max={90}
        step={0.0001}
        precision={7}
        unit="°"
      />
      <NumberInput
        label={<Trans>Height offset</Trans>}
        value={placement.height_offset}
        onChange={set('height_offset')}
        min={-10_000}
        max={10_000}
        step={1}
        precision={2}
        unit="m"
      />
      <NumberInput
        label={<Trans>Heading</Trans>}
        value={placement.heading}
        onChange={set('heading')}
        min={-180}
        max={180}
        step={15}
        precision={1}
        unit="°"
      />
      {tileset.placement && (
        <Button
          variant="ghost"
          onClick={async () => {
            if (await placeTileset(context, tileset, null)) onOpenChange(false)
          }}
        >
          <Trans>Use its own georeference</Trans>
        </Button>
      )}
    </FormDialog>
  )
}
