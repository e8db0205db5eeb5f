import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { Investigation } from '../../../api/investigations'
import * as investigationsApi from '../../../api/investigations'
import { showErrorToast } from '../../../components/feedback/error-text'
import { session } from '../../../state/session'
import { Button, confirmDelete, toast } from '../../../ui'
import { InspectionForm, inspectionStateNames } from './InspectionForm'
import {
  dropInvestigation,
  investigationsStore,
  loadInvestigations,
  upsertInvestigation,
} from './investigations-store'
import { formatDateTime } from './iot-texts'

/** What the records are of: an alarm, or a POI (its records with or without an alarm). */
export type InspectionSubject = { alarmId: string } | { poiId: string }

/** Props of {@link Inspections}. */
export interface InspectionsProps {
  projectId: string
  subject: InspectionSubject
  canEdit: boolean
}

/**
 * The inspection records of an alarm (listed under it in the alarm list) or of a POI (under its
 * device), issue 17 item 7: who inspected and when, the state, the findings and the photos;
 * editors add records against the alarm or the POI, change and delete them.
 */
export function Inspections({ projectId, subject, canEdit }: InspectionsProps) {
  const { t, i18n } = useLingui()
  const { list } = useSnapshot(investigationsStore)
  const { userData } = useSnapshot(session)
  const [editing, setEditing] = useState<Investigation | 'new' | null>(null)
  const records = list.filter((record) =>
    'alarmId' in subject ? record.alarm_id === subject.alarmId : record.poi_id === subject.poiId,
  ) as Investigation[]

  // the alarm list loads the project's records; a POI's device panel may be opened first
  useEffect(() => {
    if (investigationsStore.projectId !== projectId) {
      loadInvestigations(projectId).catch(showErrorToast)
    }
  }, [projectId])

  async function remove(record: Investigation) {
    if (!(await confirmDelete({ itemName: record.inspector }))) return
    try {
      await investigationsApi.deleteInvestigation(record.id)
      dropInvestigation(record.id)
      toast.success(t`Inspection deleted.`)
    } catch (error) {
      showErrorToast(error)
    }
  }

  const form = (record?: Investigation) => (
    <InspectionForm
      projectId={projectId}
      subject={subject}
      {...(record ? { record } : {})}
      defaultInspector={userData?.nickname || userData?.name || ''}
      onSaved={(saved) => {
        upsertInvestigation(saved)
        setEditing(null)
      }}
      onCancel={() => setEditing(null)}
    />
  )

  return (
    <section className="ts-inspections" aria-label={t`Inspections`} data-testid="inspections">
      <h4 className="ts-inspections__title">
        <Trans>Inspections ({records.length})</Trans>
      </h4>
      {records.length > 0 && (
        <ul className="ts-plain-list ts-inspections__list">
          {records.map((record) =>
            editing !== 'new' && editing?.id === record.id ? (
              <li key={record.id}>{form(record)}</li>
            ) : (
              <li key={record.id} className="ts-inspection" data-state={record.state}>
                <p className="ts-inspection__head">
                  <strong>{i18n._(inspectionStateNames[record.state])}</strong>
                  <span>{record.inspector}</span>
                  <span className="ts-bim4-muted">{formatDateTime(i18n, record.inspected_at)}</span>
                </p>
                {record.findings !== '' && (
                  <p className="ts-inspection__findings">{record.findings}</p>
                )}
                {record.photos.length > 0 && (
                  <ul className="ts-inspection-photos" aria-label={t`Photos`}>
                    {record.photos.map((photo, index) => (
                      <li key={photo.id}>
                        <a href={photo.url} target="_blank" rel="noreferrer">
                          <img src={photo.thumbnail_url} alt={t`Attachment ${index + 1}`} />
                        </a>
                      </li>
                    ))}
                  </ul>
                )}
                {canEdit && (
                  <div className="ts-iot-actions">
                    <Button variant="ghost" onClick={() => setEditing(record)}>
                      <Trans>Edit</Trans>
                    </Button>
                    <Button variant="ghost" onClick={() => void remove(record)}>
                      <Trans>Delete</Trans>
                    </Button>
                  </div>
                )}
              </li>
            ),
          )}
        </ul>
      )}
      {editing === 'new'
        ? form()
        : canEdit && (
            <Button variant="secondary" onClick={() => setEditing('new')}>
              <Trans>Add inspection</Trans>
            </Button>
          )}
    </section>
  )
}
