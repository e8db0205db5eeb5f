import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useId, useState } from 'react'
import {
  fetchMapConfig,
  type GeoSearchResult,
  type MapConfigDatum,
  reverseGeocode,
  searchPlaces,
} from '../../api/geo'
import { isLanguage, type Language } from '../../i18n/languages'
import { Button, Dialog, Spinner, TextField } from '../../ui'
import { errorText } from '../feedback/error-text'
import { type LatLng, OfflineMap } from './OfflineMap'
import { offlineDetailMaxZoom, pickerStartView } from './offline-style'
import './MapPicker.css'

/** SPEC §3 "Map pick result": where, and the address text. */
export interface MapPickResult {
  location: LatLng
  address: string
}

/** The calls the picker makes; tests pass their own answers. */
export interface MapPickerServices {
  search: typeof searchPlaces
  reverse: typeof reverseGeocode
  /** Which style to draw; without it (or when it fails) the offline style is drawn. */
  loadMapConfig?: () => Promise<MapConfigDatum>
}

// The server's map configuration does not change while the page is open: ask once.
let mapConfigOnce: Promise<MapConfigDatum> | undefined
const loadMapConfigOnce = () => {
  mapConfigOnce ??= fetchMapConfig().catch((error: unknown) => {
    mapConfigOnce = undefined
    throw error
  })
  return mapConfigOnce
}

const defaultServices: MapPickerServices = {
  search: searchPlaces,
  reverse: reverseGeocode,
  loadMapConfig: loadMapConfigOnce,
}

/** How long typing must pause before a search is sent. */
export const searchDebounceMs = 250

/** Props of {@link MapPickerDialog}. */
export interface MapPickerDialogProps {
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  /** The address chosen before, if any: the map opens there. */
  initial: MapPickResult | null
  onConfirm: (result: MapPickResult) => void
  services?: MapPickerServices
}

/**
 * The map address picker (SPEC §2 popups, §5): search a place offline or click the map; a click
 * is turned into an address by offline reverse geocoding. OK stays disabled until an address is
 * chosen, with a warning saying so.
 */
export function MapPickerDialog({
  isOpen,
  onOpenChange,
  initial,
  onConfirm,
  services = defaultServices,
}: MapPickerDialogProps) {
  const { t, i18n } = useLingui()
  const language: Language = isLanguage(i18n.locale) ? i18n.locale : 'en'
  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title={<Trans>Pick an address on the map</Trans>}
      widthPx={880}
    >
      {isOpen && (
        <PickerBody
          language={language}
          initial={initial}
          services={services}
          onCancel={() => onOpenChange(false)}
          onConfirm={(result) => {
            onConfirm(result)
            onOpenChange(false)
          }}
          searchLabel={t`Search for a place`}
        />
      )}
    </Dialog>
  )
}

function PickerBody({
  language,
  initial,
  services,
  onCancel,
  onConfirm,
  searchLabel,
}: {
  language: Language
  initial: MapPickResult | null
  services: MapPickerServices
  onCancel: () => void
  onConfirm: (result: MapPickResult) => void
  searchLabel: string
}) {
  const { t } = useLingui()
  const resultsId = useId()
  const [startView] = useState(() => pickerStartView(language, initial?.location ?? null))
  const [query, setQuery] = useState('')
  const [results, setResults] = useState<GeoSearchResult[] | null>(null)
  const [searchError, setSearchError] = useState<string | null>(null)
  const [isSearching, setIsSearching] = useState(false)
  const [picked, setPicked] = useState<MapPickResult | null>(initial)
  const [isResolving, setIsResolving] = useState(false)
  const [flyTo, setFlyTo] = useState<{ location: LatLng; zoom: number } | null>(null)
  // undefined while asking the server; null draws the offline style
  const [styleUrl, setStyleUrl] = useState<string | null | undefined>(
    services.loadMapConfig ? undefined : null,
  )

  useEffect(() => {
    const load = services.loadMapConfig
    if (!load) return
    let isCurrent = true
    load().then(
      // the proxied address is relative to our server; MapLibre's workers need it absolute
      (config) =>
        isCurrent &&
        setStyleUrl(
          config.styleUrl === null ? null : new URL(config.styleUrl, window.location.origin).href,
        ),
      // the offline style needs nothing from the server's configuration
      () => isCurrent && setStyleUrl(null),
    )
    return () => {
      isCurrent = false
    }
  }, [services])

  useEffect(() => {
    const text = query.trim()
    if (text === '') {
      setResults(null)
      setSearchError(null)
      return
    }
    const controller = new AbortController()
    const timer = setTimeout(async () => {
      setIsSearching(true)
      try {
        setResults(await services.search(text, language, controller.signal))
        setSearchError(null)
      } catch (error) {
        if (!controller.signal.aborted) setSearchError(errorText(error))
      } finally {
        if (!controller.signal.aborted) setIsSearching(false)
      }
    }, searchDebounceMs)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [query, language, services])

  // Latest click wins: each answer applies only while its own point is still the picked one.
  async function pickPoint(location: LatLng) {
    setPicked({ location, address: '' })
    setIsResolving(true)
    try {
      const answer = await services.reverse(location, language)
      setPicked((current) =>
        current && current.location === location ? { location, address: answer.address } : current,
      )
    } catch {
      // offline reverse geocoding failing is unusual; the coordinates still make an address
      setPicked((current) =>
        current && current.location === location
          ? { location, address: `${location.lat.toFixed(5)}, ${location.lng.toFixed(5)}` }
          : current,
      )
    } finally {
      setIsResolving(false)
    }
  }

  function chooseResult(result: GeoSearchResult) {
    setPicked({ location: result.location, address: result.address })
    setFlyTo({ location: result.location, zoom: offlineDetailMaxZoom })
    setResults(null)
  }

  const hasAddress = Boolean(picked && picked.address.trim() !== '')
  return (
    <div className="ts-map-picker">
      <div className="ts-map-picker__search">
        <TextField
          label={searchLabel}
          type="search"
          value={query}
          placeholder={t`City, district or street`}
          onChange={(event) => setQuery(event.target.value)}
          aria-controls={resultsId}
          data-testid="map-picker-search"
        />
        {isSearching && <Spinner sizePx={16} />}
        {results && (
          <ul id={resultsId} className="ts-map-picker__results" aria-label={t`Search results`}>
            {results.length === 0 ? (
              <li className="ts-map-picker__no-results">
                <Trans>No place found.</Trans>
              </li>
            ) : (
              results.map((result) => (
                <li key={result.id}>
                  <button type="button" onClick={() => chooseResult(result)}>
                    <span className="ts-map-picker__result-name">{result.name}</span>
                    <span className="ts-map-picker__result-context">{result.context}</span>
                  </button>
                </li>
              ))
            )}
          </ul>
        )}
        {searchError && (
          <p className="ts-field__error" role="alert">
            {searchError}
          </p>
        )}
      </div>
      {styleUrl === undefined ? (
        <div className="ts-offline-map">
          <Spinner />
        </div>
      ) : (
        <OfflineMap
          startView={startView}
          language={language}
          marker={picked?.location ?? null}
          flyTo={flyTo}
          styleUrl={styleUrl}
          onPick={(location) => void pickPoint(location)}
        />
      )}
      <div className="ts-map-picker__footer">
        <div className="ts-map-picker__address" aria-live="polite" data-testid="map-picker-address">
          {isResolving ? (
            <Spinner sizePx={16} />
          ) : hasAddress && picked ? (
            <>
              <span className="ts-map-picker__address-text">{picked.address}</span>
              <span className="ts-map-picker__coordinates">
                {picked.location.lat.toFixed(5)}, {picked.location.lng.toFixed(5)}
              </span>
            </>
          ) : (
            <span className="ts-map-picker__warning" role="status">
              <Trans>Select an address: search for a place or click on the map.</Trans>
            </span>
          )}
        </div>
        <Button onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
        <Button
          variant="primary"
          disabled={!hasAddress || isResolving}
          onClick={() => picked && onConfirm(picked)}
        >
          <Trans>OK</Trans>
        </Button>
      </div>
    </div>
  )
}
