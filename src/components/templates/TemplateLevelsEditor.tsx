import { Trans, useLingui } from '@lingui/react/macro'
import type { TemplateLevel } from '../../api/templates'
import { Button, TextField } from '../../ui'
import { AttributeForm, AttributeTable } from './AttributeParts'

function emptyLevel(): TemplateLevel {
  return { level_name: '', customs: [] }
}

/**
 * The levels of a multi-level template (`projectInfoAllCustoms`, SPEC §3, §5): each level has a
 * name and its own static attributes (the attributes a POI of that level gets), checked by the
 * same rules as a simple template's. Everything here is saved with the basic tab.
 */
export function TemplateLevelsEditor({
  levels: savedLevels,
  onChange,
}: {
  levels: readonly TemplateLevel[]
  onChange: (levels: TemplateLevel[]) => void
}) {
  const { t } = useLingui()
  const levels = savedLevels.length > 0 ? savedLevels : [emptyLevel()]
  const change = (index: number, patch: Partial<TemplateLevel>) =>
    onChange(levels.map((level, at) => (at === index ? { ...level, ...patch } : level)))
  return (
    <fieldset className="ts-template-levels" data-testid="template-levels">
      <legend className="ts-field__label">
        <Trans>Levels</Trans>
      </legend>
      {levels.map((level, index) => {
        const levelNumber = index + 1
        return (
          // levels have no id until saved; their place is their identity
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <div className="ts-template-levels__level" key={index}>
            <div className="ts-template-levels__row">
              <TextField
                label={t`Level ${levelNumber}`}
                value={level.level_name}
                maxLength={100}
                onChange={(event) => change(index, { level_name: event.target.value })}
              />
              <Button
                variant="ghost"
                onClick={() => onChange(levels.filter((_, at) => at !== index))}
                disabled={levels.length === 1}
                aria-label={t`Remove level ${levelNumber}`}
              >
                <Trans>Remove</Trans>
              </Button>
            </div>
            <fieldset
              className="ts-template-levels__attributes"
              data-testid={`level-${levelNumber}-attributes`}
            >
              <legend className="ts-field__hint">
                <Trans>Static attributes of level {levelNumber}</Trans>
              </legend>
              {level.customs.length > 0 && (
                <AttributeTable
                  testId={`level-${levelNumber}-attribute-table`}
                  rows={level.customs.map((custom) => ({ ...custom, key: custom.property_column }))}
                  onDelete={(row) =>
                    change(index, {
                      customs: level.customs.filter(
                        (custom) => custom.property_column !== row.property_column,
                      ),
                    })
                  }
                />
              )}
              <AttributeForm
                // a level's attributes are part of the template's save: there is always one
                hasTemplate
                testIdPrefix={`level-${levelNumber}-attribute`}
                takenColumns={level.customs.map((custom) => custom.property_column)}
                onAdd={(values) => {
                  change(index, { customs: [...level.customs, values] })
                  return true
                }}
              />
            </fieldset>
          </div>
        )
      })}
      <Button onClick={() => onChange([...levels, emptyLevel()])}>
        <Trans>Add level</Trans>
      </Button>
    </fieldset>
  )
}
