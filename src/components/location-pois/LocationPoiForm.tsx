import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import type { CategoryNode } from '../../api/templates'
import type { CreatLocationPoiBody, TrackedObject } from '../../api/tracking'
import { categoryNameText } from '../../i18n/library-names'
import { Button, FormWrapper, Select, TextField, toast } from '../../ui'
import { reasonText } from '../feedback/error-text'
import { NameField } from '../forms/NameField'
import '../region-list/region-list.css'
import './location-pois.css'

/** The calls the form makes (the city passes its services, the building the real API). */
export interface LocationPoiFormCalls {
  add: (body: CreatLocationPoiBody) => Promise<{ object: TrackedObject; token: string }>
  /** The location category tree (SPEC §3: fetched with id '0'). */
  findCategories: () => Promise<CategoryNode[]>
}

/** The select's value for "no location category". */
const noCategory = 'none'

/** The location category tree as select options, each named by its path ('Staff / Guards'). */
function categoryOptions(
  nodes: readonly CategoryNode[],
  path: readonly string[] = [],
): { value: string; label: string }[] {
  return nodes.flatMap((node) => {
    const names = [...path, categoryNameText(node)]
    return [{ value: node.id, label: names.join(' / ') }, ...categoryOptions(node.children, names)]
  })
}

/**
 * Adds a location POI (SPEC §7 `creatLocationPoi`; a positioned object of a city or a building):
 * its name, free-text category, a category of the location tree and its coding, in the shared
 * form frame (one request per submit, however often it is clicked). The device token
 * it answers is shown once, with the address the device reports its positions to. Shown to
 * those who may edit the project.
 */
export function LocationPoiForm({
  projectId,
  calls,
  onAdded,
}: {
  projectId: string
  calls: LocationPoiFormCalls
  /** Called once the server saved it (the list reads again). */
  onAdded: (object: TrackedObject) => Promise<void> | void
}) {
  const { t } = useLingui()
  const [name, setName] = useState('')
  const [category, setCategory] = useState('')
  const [coding, setCoding] = useState('')
  const [categoryId, setCategoryId] = useState(noCategory)
  const [locationCategories, setLocationCategories] = useState<CategoryNode[]>([])
  const [newToken, setNewToken] = useState<{ name: string; token: string } | null>(null)

  // The location tree names what the objects are; a failed read leaves the choice out, the
  // free-text category still works.
  useEffect(() => {
    let isCurrent = true
    calls.findCategories().then(
      (tree) => {
        if (isCurrent) setLocationCategories(tree)
      },
      () => {},
    )
    return () => {
      isCurrent = false
    }
  }, [calls])
  const categoryChoices = categoryOptions(locationCategories)

  return (
    <>
      <FormWrapper
        label={t`New positioned object`}
        submitLabel={<Trans>Add</Trans>}
        isSubmitDisabled={name.trim() === ''}
        onSubmit={async () => {
          try {
            const added = await calls.add({
              project_id: projectId,
              name: name.trim(),
              category: category.trim(),
              category_id: categoryId === noCategory ? '' : categoryId,
              coding: coding.trim(),
            })
            setNewToken({ name: added.object.name, token: added.token })
            setName('')
            setCategory('')
            setCategoryId(noCategory)
            setCoding('')
            await onAdded(added.object)
          } catch (error) {
            toast.error(`${t`The object could not be added.`} ${reasonText(error)}`)
          }
        }}
      >
        <NameField value={name} onValueChange={setName} />
        <TextField
          label={<Trans>Category</Trans>}
          value={category}
          maxLength={100}
          placeholder={t`e.g. person, vehicle`}
          onChange={(event) => setCategory(event.target.value)}
        />
        {categoryChoices.length > 0 && (
          <Select
            label={<Trans>Location category</Trans>}
            options={[{ value: noCategory, label: t`None` }, ...categoryChoices]}
            value={categoryId}
            onValueChange={setCategoryId}
          />
        )}
        <TextField
          label={<Trans>Coding</Trans>}
          value={coding}
          maxLength={100}
          onChange={(event) => setCoding(event.target.value)}
        />
      </FormWrapper>
      {newToken && (
        <section className="ts-boxed" data-testid="tracked-token" role="status">
          <p>
            <Trans>
              The device token of {newToken.name} is shown only now. The device reports its position
              to:
            </Trans>
          </p>
          <code className="ts-location-poi__token">{`POST ${location.origin}/api/v1/${newToken.token}/position`}</code>
          <Button onClick={() => setNewToken(null)}>
            <Trans>Done</Trans>
          </Button>
        </section>
      )}
    </>
  )
}
