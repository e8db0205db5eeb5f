import { Trans, useLingui } from '@lingui/react/macro'
import { type FormEvent, useEffect, useState } from 'react'
import {
  addCaseDetail,
  addCaseMenu,
  type CaseDetail,
  type CaseMenu,
  deleteCaseDetail,
  deleteCaseMenu,
  updateCaseDetail,
  updateCaseMenu,
} from '../../api/cases'
import { findProjects, type Project, uploadProjectCover } from '../../api/project'
import { showErrorToast } from '../../components/feedback/error-text'
import { Button, confirmDelete, FileChoiceFace, Select, TextArea, TextField, toast } from '../../ui'
import type { CaseGallery } from './case-project'
import './case-curation.css'

/** The Select value of "no category" (radix reserves the empty string). */
const uncategorised = 'none'

/**
 * The admins' curation of the case gallery (SPEC §7 `/case` menu and detail): categories added,
 * renamed, moved and deleted; any project added as a case; each case's title, description,
 * category, cover and place changed, or the case taken out of the gallery (the project is private
 * again). Every change is saved at once and the gallery reloads.
 */
export function CaseCuration({
  gallery,
  onChanged,
}: {
  gallery: CaseGallery
  onChanged: () => Promise<void> | void
}) {
  const { t } = useLingui()
  const [newMenu, setNewMenu] = useState('')
  const [projects, setProjects] = useState<Project[]>([])
  const [chosenProject, setChosenProject] = useState<string | null>(null)
  const [keyword, setKeyword] = useState('')

  useEffect(() => {
    const controller = new AbortController()
    // a page holds at most 100 projects: past that, the name typed finds the rest (asked
    // once typing pauses)
    const timer = setTimeout(
      () => {
        findProjects(
          {
            pageSize: 100,
            sort: 'name',
            order: 'asc',
            ...(keyword.trim() ? { keyword: keyword.trim() } : {}),
          },
          controller.signal,
        ).then(
          (page) => setProjects(page.list),
          () => setProjects([]),
        )
      },
      keyword ? 250 : 0,
    )
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [keyword])

  async function save(work: () => Promise<unknown>) {
    try {
      await work()
      toast.success(t`Saved.`)
      await onChanged()
    } catch (error) {
      showErrorToast(error)
    }
  }

  async function addMenu(event: FormEvent) {
    event.preventDefault()
    const name = newMenu.trim()
    if (!name) return
    await save(async () => {
      await addCaseMenu(name)
      setNewMenu('')
    })
  }

  const shown = new Set(gallery.details.map((detail) => detail.project_id))
  const candidates = projects.filter((project) => !shown.has(project.id))
  const menuOptions = [
    { value: uncategorised, label: t`No category` },
    ...gallery.menus.map((menu) => ({ value: menu.id, label: menu.name })),
  ]
  return (
    <section className="ts-case-curation" aria-label={t`Curate the cases`}>
      <h2>
        <Trans>Curate the cases</Trans>
      </h2>
      <h3>
        <Trans>Categories</Trans>
      </h3>
      <ol className="ts-case-curation__list" aria-label={t`Categories`}>
        {gallery.menus.map((menu, index) => (
          <MenuRow
            key={`${menu.id}:${menu.updated_at}`}
            menu={menu}
            isFirst={index === 0}
            isLast={index === gallery.menus.length - 1}
            onSave={save}
          />
        ))}
      </ol>
      <form className="ts-case-curation__row" onSubmit={(event) => void addMenu(event)}>
        <TextField
          label={t`New category`}
          value={newMenu}
          maxLength={40}
          onChange={(event) => setNewMenu(event.target.value)}
        />
        <Button type="submit" disabled={!newMenu.trim()}>
          <Trans>Add category</Trans>
        </Button>
      </form>

      <h3>
        <Trans>Add a project to the gallery</Trans>
      </h3>
      <div className="ts-case-curation__row">
        <TextField
          label={t`Find a project`}
          type="search"
          value={keyword}
          maxLength={100}
          onChange={(event) => {
            setKeyword(event.target.value)
            setChosenProject(null)
          }}
        />
        <Select
          label={t`Project`}
          value={chosenProject}
          onValueChange={setChosenProject}
          placeholder={t`Choose a project`}
          options={candidates.map((project) => ({ value: project.id, label: project.name }))}
        />
        <Button
          disabled={!chosenProject}
          onClick={() =>
            chosenProject &&
            void save(async () => {
              await addCaseDetail({ project_id: chosenProject })
              setChosenProject(null)
            })
          }
        >
          <Trans>Add to the gallery</Trans>
        </Button>
      </div>

      <h3>
        <Trans>Cases</Trans>
      </h3>
      <ol className="ts-case-curation__list" aria-label={t`Cases`}>
        {gallery.details.map((detail) => {
          const siblings = gallery.details.filter((each) => each.menu_id === detail.menu_id)
          return (
            <CaseRow
              key={`${detail.id}:${detail.updated_at}:${detail.sort_order}`}
              detail={detail}
              menuOptions={menuOptions}
              isFirst={siblings[0]?.id === detail.id}
              isLast={siblings.at(-1)?.id === detail.id}
              onSave={save}
            />
          )
        })}
      </ol>
    </section>
  )
}

type Save = (work: () => Promise<unknown>) => Promise<void>

function MenuRow({
  menu,
  isFirst,
  isLast,
  onSave,
}: {
  menu: CaseMenu
  isFirst: boolean
  isLast: boolean
  onSave: Save
}) {
  const { t } = useLingui()
  const [name, setName] = useState(menu.name)
  const menuName = menu.name
  return (
    <li className="ts-case-curation__row">
      <TextField
        label={t`Category name`}
        value={name}
        maxLength={40}
        onChange={(event) => setName(event.target.value)}
      />
      <Button
        variant="secondary"
        disabled={!name.trim() || name.trim() === menu.name}
        onClick={() => void onSave(() => updateCaseMenu({ id: menu.id, name: name.trim() }))}
      >
        <Trans>Rename</Trans>
      </Button>
      <Button
        variant="secondary"
        disabled={isFirst}
        aria-label={t`Move ${menuName} up`}
        onClick={() =>
          void onSave(() => updateCaseMenu({ id: menu.id, sort_order: menu.sort_order - 1 }))
        }
      >
        ↑
      </Button>
      <Button
        variant="secondary"
        disabled={isLast}
        aria-label={t`Move ${menuName} down`}
        onClick={() =>
          void onSave(() => updateCaseMenu({ id: menu.id, sort_order: menu.sort_order + 1 }))
        }
      >
        ↓
      </Button>
      <Button
        variant="secondary"
        aria-label={t`Delete ${menuName}`}
        onClick={async () => {
          if (await confirmDelete({ itemName: menu.name })) {
            await onSave(() => deleteCaseMenu(menu.id))
          }
        }}
      >
        <Trans>Delete</Trans>
      </Button>
    </li>
  )
}

function CaseRow({
  detail,
  menuOptions,
  isFirst,
  isLast,
  onSave,
}: {
  detail: CaseDetail
  menuOptions: { value: string; label: string }[]
  isFirst: boolean
  isLast: boolean
  onSave: Save
}) {
  const { t } = useLingui()
  const [title, setTitle] = useState(detail.title)
  const [description, setDescription] = useState(detail.description)
  const caseTitle = detail.title
  const isChanged = title.trim() !== detail.title || description.trim() !== detail.description
  return (
    <li className="ts-case-curation__case" data-testid="case-row">
      <TextField
        label={t`Title`}
        value={title}
        maxLength={60}
        onChange={(event) => setTitle(event.target.value)}
      />
      <TextArea
        label={t`Description`}
        value={description}
        maxLength={500}
        onValueChange={setDescription}
      />
      <Select
        label={t`Category`}
        value={detail.menu_id ?? uncategorised}
        options={menuOptions}
        onValueChange={(value) =>
          void onSave(() =>
            updateCaseDetail({ id: detail.id, menu_id: value === uncategorised ? '' : value }),
          )
        }
      />
      <label className="ts-case-curation__cover">
        <span>
          <Trans>Cover image</Trans>
        </span>
        <input
          type="file"
          className="ts-visually-hidden"
          accept="image/png,image/jpeg"
          onChange={(event) => {
            const file = event.target.files?.[0]
            if (file) {
              void onSave(async () => {
                const cover = await uploadProjectCover(file, null)
                await updateCaseDetail({ id: detail.id, cover_uuid: cover.uuid })
              })
            }
          }}
        />
        <FileChoiceFace />
      </label>
      <div className="ts-case-curation__row">
        <Button
          disabled={!isChanged || !title.trim()}
          onClick={() =>
            void onSave(() =>
              updateCaseDetail({
                id: detail.id,
                title: title.trim(),
                description: description.trim(),
              }),
            )
          }
        >
          <Trans>Save</Trans>
        </Button>
        {detail.cover_uuid && (
          <Button
            variant="secondary"
            onClick={() => void onSave(() => updateCaseDetail({ id: detail.id, cover_uuid: '' }))}
          >
            <Trans>Use the project’s cover</Trans>
          </Button>
        )}
        <Button
          variant="secondary"
          disabled={isFirst}
          aria-label={t`Move ${caseTitle} up`}
          onClick={() =>
            void onSave(() =>
              updateCaseDetail({ id: detail.id, sort_order: detail.sort_order - 1 }),
            )
          }
        >
          ↑
        </Button>
        <Button
          variant="secondary"
          disabled={isLast}
          aria-label={t`Move ${caseTitle} down`}
          onClick={() =>
            void onSave(() =>
              updateCaseDetail({ id: detail.id, sort_order: detail.sort_order + 1 }),
            )
          }
        >
          ↓
        </Button>
        <Button
          variant="secondary"
          aria-label={t`Remove ${caseTitle} from the gallery`}
          onClick={async () => {
            if (await confirmDelete({ itemName: detail.title })) {
              await onSave(() => deleteCaseDetail(detail.id))
            }
          }}
        >
          <Trans>Remove from the gallery</Trans>
        </Button>
      </div>
    </li>
  )
}
