import { Trans } from '@lingui/react/macro'
import type { PageProps } from '../../app/page-props'
import { TemplateList } from '../../components/templates/TemplateList'

/**
 * `/templateManage/bim` (SPEC §2 "Template manage"): the user's POI template library with its
 * categories and the batch-POI template file.
 */
export function TemplateManagePage(_props: Partial<PageProps>) {
  return (
    <section className="ts-template-page" data-testid="template-manage-page">
      <h1 className="ts-page-title">
        <Trans>Template list</Trans>
      </h1>
      <TemplateList />
    </section>
  )
}
