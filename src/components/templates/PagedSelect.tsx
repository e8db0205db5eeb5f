import { useLingui } from '@lingui/react/macro'
import { type ReactNode, useCallback, useEffect, useState } from 'react'
import { Button, Select } from '../../ui'
import { errorText } from '../feedback/error-text'

/** One page a {@link PagedSelect} shows. */
export interface SelectPage<Item> {
  list: Item[]
  total: number
}

/** Props of {@link PagedSelect}. */
export interface PagedSelectProps<Item extends { id: string }> {
  label: ReactNode
  /** Loads one page (1-based) of `pageSize` items. */
  loadPage: (pageNo: number, pageSize: number) => Promise<SelectPage<Item>>
  labelOf: (item: Item) => string
  value: Item | null
  onChange: (item: Item) => void
  placeholder: string
  pageSize?: number
  testId?: string
}

/**
 * A drop-down that loads its choices a page at a time (SPEC §7 `pageSize`, `pageNo`), with
 * previous/next page buttons beside it, so thousands of categories or templates never load at
 * once. The drop-down is a radix Select (keyboard: Enter opens, arrows, typeahead).
 */
export function PagedSelect<Item extends { id: string }>({
  label,
  loadPage,
  labelOf,
  value,
  onChange,
  placeholder,
  pageSize = 20,
  testId,
}: PagedSelectProps<Item>) {
  const { t } = useLingui()
  const [pageNo, setPageNo] = useState(1)
  const [page, setPage] = useState<SelectPage<Item> | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)

  const load = useCallback(
    async (wanted: number) => {
      setLoadError(null)
      try {
        setPage(await loadPage(wanted, pageSize))
      } catch (error) {
        setLoadError(error)
      }
    },
    [loadPage, pageSize],
  )

  useEffect(() => {
    void load(pageNo)
  }, [load, pageNo])

  const reason = loadError !== null ? errorText(loadError) : ''
  const pageCount = page ? Math.max(1, Math.ceil(page.total / pageSize)) : 1
  const options = (page?.list ?? []).map((item) => ({ value: item.id, label: labelOf(item) }))
  // the chosen item stays visible even on a page that does not hold it
  if (value && !options.some((option) => option.value === value.id))
    options.unshift({ value: value.id, label: labelOf(value) })
  return (
    <div className="ts-paged-select" data-testid={testId}>
      <Select
        label={label}
        placeholder={placeholder}
        options={options}
        value={value?.id ?? null}
        onValueChange={(id) => {
          const item = page?.list.find((candidate) => candidate.id === id) ?? value
          if (item && item.id === id) onChange(item)
        }}
        // SPEC §8: a failed category load says the network is abnormal
        error={loadError !== null ? t`Network abnormal, please retry later. ${reason}` : undefined}
      />
      <div className="ts-paged-select__pager">
        <Button
          variant="ghost"
          onClick={() => setPageNo((current) => Math.max(1, current - 1))}
          disabled={pageNo <= 1}
          aria-label={t`Previous page`}
        >
          ‹
        </Button>
        <span aria-live="polite">
          {pageNo} / {pageCount}
        </span>
        <Button
          variant="ghost"
          onClick={() => setPageNo((current) => Math.min(pageCount, current + 1))}
          disabled={pageNo >= pageCount}
          aria-label={t`Next page`}
        >
          ›
        </Button>
      </div>
    </div>
  )
}
