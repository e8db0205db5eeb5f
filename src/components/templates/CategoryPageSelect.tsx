import { useLingui } from '@lingui/react/macro'
import { type ReactNode, useCallback, useEffect, useState } from 'react'
import type { PoiCategory } from '../../api/templates'
import { Button, Select } from '../../ui'
import { errorText } from '../feedback/error-text'
import { serverTemplateServices, type TemplateServices } from './template-services'

/** Categories per page of the paged select. */
export const categoryPageSize = 20

/**
 * The paged category select (SPEC §7 category select with `pageSize` and `pageNo`): one page of
 * categories in a drop-down, with previous/next page buttons beside it, so a user with
 * thousands of categories never loads them all at once.
 */
export function CategoryPageSelect({
  label,
  value,
  onChange,
  placeholder,
  services = serverTemplateServices,
}: {
  label: ReactNode
  value: PoiCategory | null
  onChange: (category: PoiCategory) => void
  placeholder?: ReactNode
  services?: TemplateServices
}) {
  const { t } = useLingui()
  const [pageNo, setPageNo] = useState(1)
  const [page, setPage] = useState<{ list: PoiCategory[]; total: number } | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)

  const load = useCallback(
    async (wanted: number) => {
      setLoadError(null)
      try {
        const answer = await services.selectCategoryPage({
          pageNo: wanted,
          pageSize: categoryPageSize,
        })
        setPage({ list: answer.list, total: answer.total })
      } catch (error) {
        setLoadError(error)
      }
    },
    [services],
  )

  useEffect(() => {
    void load(pageNo)
  }, [load, pageNo])

  const reason = loadError !== null ? errorText(loadError) : ''
  const pageCount = page ? Math.max(1, Math.ceil(page.total / categoryPageSize)) : 1
  const options = (page?.list ?? []).map((category) => ({
    value: String(category.id),
    label: category.category_name,
  }))
  // the chosen category stays visible even on a page that does not hold it
  if (value && !options.some((option) => option.value === String(value.id)))
    options.unshift({ value: String(value.id), label: value.category_name })
  return (
    <div className="ts-category-page-select" data-testid="category-page-select">
      <Select
        label={label}
        placeholder={placeholder ?? t`Choose a category`}
        options={options}
        value={value ? String(value.id) : null}
        onValueChange={(id) => {
          const category =
            page?.list.find((candidate) => String(candidate.id) === id) ??
            (value && String(value.id) === id ? value : null)
          if (category) onChange(category)
        }}
        error={loadError !== null ? t`Network abnormal, please retry later. ${reason}` : undefined}
      />
      <div className="ts-category-page-select__pager">
        <Button
          variant="ghost"
          onClick={() => setPageNo((current) => Math.max(1, current - 1))}
          disabled={pageNo <= 1}
          aria-label={t`Previous page of categories`}
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
          aria-label={t`Next page of categories`}
        >
          ›
        </Button>
      </div>
    </div>
  )
}
