import { Trans, useLingui } from '@lingui/react/macro'
import { type ReactNode, useEffect, useRef, useState } from 'react'
import { findAreaJson, type RegionOption } from '../../api/geo'
import { Button, Select } from '../../ui'
import { errorText } from '../feedback/error-text'
import { cachedRegionLoader, type LoadRegionChildren, resolveRegionPath } from './region-path'
import './RegionPicker.css'

const defaultLoader = cachedRegionLoader((codeid) => findAreaJson(codeid))

/** Props of {@link RegionPicker}. */
export interface RegionPickerProps {
  label: ReactNode
  /** The deepest chosen code, or null for none. */
  value: string | null
  /** Receives the chosen path from the province down (empty when cleared). */
  onChange: (path: RegionOption[]) => void
  disabled?: boolean
  /** Where children come from; defaults to `/publicselect/findAreaJson` with a cache. */
  loadChildren?: LoadRegionChildren
}

/**
 * The region cascade (SPEC §2): province, city, district and street, each list loaded when its
 * parent is chosen. A branch ends where a region has no children, so a city without districts
 * goes straight to its towns and a street ends the cascade.
 */
export function RegionPicker({
  label,
  value,
  onChange,
  disabled,
  loadChildren = defaultLoader,
}: RegionPickerProps) {
  const { t } = useLingui()
  const levelLabels = [t`Province`, t`City`, t`District`, t`Street`]
  const [path, setPath] = useState<RegionOption[]>([])
  // options[i] lists the choices of level i: the children of path[i - 1] (or of the root)
  const [options, setOptions] = useState<RegionOption[][]>([])
  const [error, setError] = useState<string | null>(null)

  // The saved value is read once, when the picker opens; later values come from the picker
  const openingValue = useRef(value)

  // Opens on the saved value: its path, and every level's list along it.
  useEffect(() => {
    const value = openingValue.current
    let isCurrent = true
    ;(async () => {
      try {
        const resolved = value ? ((await resolveRegionPath(value, loadChildren)) ?? []) : []
        const lists = [await loadChildren('0')]
        for (const region of resolved) {
          if (region.children) lists.push(await loadChildren(region.codeid))
        }
        if (!isCurrent) return
        setPath(resolved)
        setOptions(lists)
        setError(null)
      } catch (failure) {
        if (isCurrent) setError(errorText(failure))
      }
    })()
    return () => {
      isCurrent = false
    }
  }, [loadChildren])

  async function choose(level: number, codeid: string) {
    const region = options[level]?.find((option) => option.codeid === codeid)
    if (!region) return
    const nextPath = [...path.slice(0, level), region]
    const nextOptions = options.slice(0, level + 1)
    setPath(nextPath)
    setOptions(nextOptions)
    onChange(nextPath)
    if (!region.children) return
    try {
      const children = await loadChildren(region.codeid)
      setOptions((current) =>
        current.length === level + 1 && current[level] === nextOptions[level]
          ? [...current, children]
          : current,
      )
      setError(null)
    } catch (failure) {
      setError(errorText(failure))
    }
  }

  function clear() {
    setPath([])
    setOptions((current) => current.slice(0, 1))
    onChange([])
  }

  return (
    <fieldset className="ts-region-picker" disabled={disabled}>
      <legend className="ts-field__label">{label}</legend>
      <div className="ts-region-picker__levels">
        {options.map((levelOptions, level) => (
          <Select
            // biome-ignore lint/suspicious/noArrayIndexKey: a level is its position in the cascade
            key={level}
            label={levelLabels[level] ?? levelLabels[3]}
            placeholder={t`Choose`}
            options={levelOptions.map((option) => ({ value: option.codeid, label: option.name }))}
            value={path[level]?.codeid ?? null}
            onValueChange={(codeid) => void choose(level, codeid)}
            disabled={disabled}
          />
        ))}
        {path.length > 0 && !disabled && (
          <Button variant="ghost" onClick={clear}>
            <Trans>Clear</Trans>
          </Button>
        )}
      </div>
      {error && (
        <p className="ts-field__error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  )
}
