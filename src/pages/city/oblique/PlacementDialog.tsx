import { Trans } from '@lingui/react/macro'
import { useEffect, useRef, useState } from 'react'
import type { CityTilesetState } from '../../../../engine/api'
import type { ObliquePhotograph, TilesetPlacement } from '../../../api/city'
import { Button, FormDialog, NumberInput } from '../../../ui'
import { type CityActionContext, placeTileset, previewTilesetPlacement } from '../city-actions'

/** How long the form waits after the last change before the map shows it (it restreams). */
const previewDelayMs = 400

/** Props of {@link PlacementDialog}. */
export interface PlacementDialogProps {
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  tileset: ObliquePhotograph
  /** What the engine draws for this tileset (placement in force, its centre), when open. */
  engineState: CityTilesetState | undefined
  /** Where a tileset that cannot be located yet starts: the map's current centre. */
  fallbackCenter: { lng: number; lat: number }
  context: CityActionContext
}

/**
 * The placement form's starting values: the values in force — the saved placement, else the
 * project's location where the engine put a tileset without georeference, else where its own
 * georeference draws it, else the map's centre.
 */
export function initialPlacement(
  tileset: Pick<ObliquePhotograph, 'placement'>,
  engineState: Pick<CityTilesetState, 'placementInForce' | 'center'> | undefined,
  fallbackCenter: { lng: number; lat: number },
): TilesetPlacement {
  if (tileset.placement) return tileset.placement
  const inForce = engineState?.placementInForce
  if (inForce) {
    return {
      lng: inForce.lng,
      lat: inForce.lat,
      height_offset: inForce.heightOffset,
      heading: inForce.heading,
    }
  }
  const center = engineState?.center ?? fallbackCenter
  return { lng: center.lng, lat: center.lat, height_offset: 0, heading: 0 }
}

/**
 * Places a tileset on the globe: longitude, latitude, a height offset in metres and a heading
 * in degrees. A tileset without georeference is put at that place; a georeferenced one is moved
 * there whole (or given back its own place). The map shows each change before it is saved;
 * closing without saving puts the tileset back.
 */
export function PlacementDialog({
  isOpen,
  onOpenChange,
  tileset,
  engineState,
  fallbackCenter,
  context,
}: PlacementDialogProps) {
  const [placement, setPlacement] = useState(() =>
    initialPlacement(tileset, engineState, fallbackCenter),
  )
  const isPreviewed = useRef(false)
  // Where the engine has the tileset (it restreams after a change): once known, an untouched
  // form shows it instead of the map's centre.
  const isLocated = Boolean(engineState?.placementInForce ?? engineState?.center)
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form restarts from the values in force each time it opens, not on every camera move
  useEffect(() => {
    if (isOpen && !isPreviewed.current) {
      setPlacement(initialPlacement(tileset, engineState, fallbackCenter))
    }
  }, [isOpen, tileset, isLocated])

  function change(next: TilesetPlacement) {
    setPlacement(next)
    isPreviewed.current = true
  }

  // The map follows the form, a moment after the last keystroke.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the values drive the preview
  useEffect(() => {
    if (!isOpen || !isPreviewed.current) return
    const timer = setTimeout(
      () => void previewTilesetPlacement(context, tileset, placement),
      previewDelayMs,
    )
    return () => clearTimeout(timer)
  }, [isOpen, placement])

  function close(isSaved: boolean) {
    // Unsaved changes leave the map: the tileset goes back to what is saved.
    if (!isSaved && isPreviewed.current) {
      void previewTilesetPlacement(context, tileset, tileset.placement)
    }
    isPreviewed.current = false
    onOpenChange(false)
  }

  const tilesetName = tileset.name
  const set = (key: keyof TilesetPlacement) => (value: number) =>
    change({ ...placement, [key]: value })
  const note = tileset.placement ? (
    <Trans>Placed by hand. The map shows changes before they are saved.</Trans>
  ) : engineState?.isPlacedByDefault || !tileset.is_georeferenced ? (
    <Trans>
      This tileset has no georeference, so it is placed at the project’s location. Enter another
      place to move it; the map shows it before you save.
    </Trans>
  ) : (
    <Trans>
      Drawn where its own georeference puts it (the values below). Enter another place to move it
      there whole; the map shows it before you save.
    </Trans>
  )

  return (
    <FormDialog
      isOpen={isOpen}
      onOpenChange={(next) => (next ? onOpenChange(true) : close(false))}
      title={<Trans>Placement of {tilesetName}</Trans>}
      submitLabel={<Trans>Save</Trans>}
      onSubmit={async () => {
        if (await placeTileset(context, tileset, placement)) close(true)
      }}
    >
      <p className="ts-city-placement__note" data-testid="placement-note">
        {note}
      </p>
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
            if (await placeTileset(context, tileset, null)) close(true)
          }}
        >
          {tileset.is_georeferenced ? (
            <Trans>Use its own georeference</Trans>
          ) : (
            <Trans>Back to the project’s location</Trans>
          )}
        </Button>
      )}
    </FormDialog>
  )
}
