import { Trans } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { Button, TextField } from '../../ui'

/**
 * The search row above a paged list (projects, users, roles): a keyword field and a Search button
 * that applies the trimmed keyword only on submit, so typing does not refetch on every key. Extra
 * actions (such as "Add user") go in `children`, after the button.
 */
export function KeywordSearchForm({
  className,
  formLabel,
  fieldLabel,
  keyword,
  onKeywordChange,
  onSearch,
  inputTestId,
  children,
}: {
  className: string
  /** The form's accessible name, e.g. "Search users". */
  formLabel: string
  fieldLabel: string
  keyword: string
  onKeywordChange: (keyword: string) => void
  onSearch: (trimmedKeyword: string) => void
  inputTestId?: string
  children?: ReactNode
}) {
  return (
    <form
      className={className}
      aria-label={formLabel}
      onSubmit={(event) => {
        event.preventDefault()
        onSearch(keyword.trim())
      }}
    >
      <TextField
        label={fieldLabel}
        type="search"
        value={keyword}
        maxLength={100}
        data-testid={inputTestId}
        onChange={(event) => onKeywordChange(event.target.value)}
      />
      <Button type="submit">
        <Trans>Search</Trans>
      </Button>
      {children}
    </form>
  )
}
