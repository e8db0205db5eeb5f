import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { useSnapshot } from 'valtio'
import type { ModelAnimationSettings } from '../../../engine/api'
import { reasonText } from '../../components/feedback/error-text'
import { sceneStore, useEngine } from '../../engine-bridge'
import { Button, EmptyState, Select, toast } from '../../ui'
import type { LibraryTabProps } from './ModelLibraryTab'
import { libraryModelsState, runModelAnimation, saveLibraryModel } from './library-models-store'

/** Playback rates offered (the engine takes 0.1–10). */
const speedChoices = ['0.25', '0.5', '1', '2', '4'] as const

/**
 * The model animation tab of both editors (SPEC §2 city sub-tab "model animation"; issue 21):
 * pick a library model that carries glTF animations, then play or pause it, choose the clip, the
 * speed and whether it loops, live in the scene. "Save" keeps these settings (and whether it
 * plays on opening) with the model, so the project opens with the model moving as set here.
 */
export function ModelAnimationTab({ scene, canEdit }: LibraryTabProps) {
  const { t, i18n } = useLingui()
  const engine = useEngine()
  const { models, selectedId } = useSnapshot(libraryModelsState)
  const shown = useSnapshot(sceneStore)[scene]
  const [isSaving, setIsSaving] = useState(false)
  const animated = models.filter((model) => model.animation_count > 0)
  const model = animated.find((item) => item.id === selectedId) ?? animated[0] ?? null
  const state = model ? shown.libraryModels.find((item) => item.id === model.id) : undefined
  const animation = state?.loadState === 'success' ? state.animation : null
  const seconds = new Intl.NumberFormat(i18n.locale, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  })

  if (!model) {
    return (
      <EmptyState
        title={<Trans>No animated models</Trans>}
        description={
          scene === 'city' ? (
            <Trans>Upload a glTF model that carries animations in the model library tab.</Trans>
          ) : (
            <Trans>Upload a glTF model that carries animations in the placed models tab.</Trans>
          )
        }
      />
    )
  }

  const change = (patch: Partial<ModelAnimationSettings>) => {
    runModelAnimation(engine, scene, { id: model.id, ...patch }).catch((error: unknown) =>
      toast.error(reasonText(error)),
    )
  }

  async function save() {
    if (!model || !animation) return
    setIsSaving(true)
    try {
      await saveLibraryModel({
        id: model.id,
        animation_clip: animation.clipIndex,
        animation_speed: animation.speed,
        animation_loop: animation.isLooping,
        animation_autoplay: animation.isPlaying,
      })
      toast.success(t`Saved.`)
    } catch (error) {
      toast.error(reasonText(error))
    } finally {
      setIsSaving(false)
    }
  }

  const clip = animation?.clips[animation.clipIndex]
  const current = seconds.format(animation?.timeSeconds ?? 0)
  const total = seconds.format(clip?.durationSeconds ?? 0)
  return (
    <div className="ts-library-models" data-testid={`${scene}-model-animation`}>
      <Select
        label={t`Model`}
        value={model.id}
        options={animated.map((item) => ({ value: item.id, label: item.model_name }))}
        onValueChange={(id) => {
          libraryModelsState.selectedId = id
        }}
      />
      {!animation ? (
        <p className="ts-library-models__hint">
          {state?.loadState === 'error' ? (
            <Trans>The model failed to load.</Trans>
          ) : (
            <Trans>Loading the model…</Trans>
          )}
        </p>
      ) : (
        <>
          <Select
            label={t`Animation`}
            value={String(animation.clipIndex)}
            options={animation.clips.map((item, index) => ({
              value: String(index),
              label: item.name || t`Animation ${index + 1}`,
            }))}
            onValueChange={(value) => change({ clipIndex: Number(value) })}
          />
          <div className="ts-library-models__playback">
            <Button variant="primary" onClick={() => change({ isPlaying: !animation.isPlaying })}>
              {animation.isPlaying ? <Trans>Pause</Trans> : <Trans>Play</Trans>}
            </Button>
            <span className="ts-library-models__time" data-testid={`${scene}-model-animation-time`}>
              <Trans>
                {current} / {total} s
              </Trans>
            </span>
          </div>
          <Select
            label={t`Speed`}
            value={String(animation.speed)}
            options={speedChoices.map((value) => ({ value, label: `${value}×` }))}
            onValueChange={(value) => change({ speed: Number(value) })}
          />
          <label className="ts-library-models__check">
            <input
              type="checkbox"
              checked={animation.isLooping}
              onChange={(event) => change({ isLooping: event.target.checked })}
            />
            <Trans>Loop</Trans>
          </label>
          {canEdit && (
            <Button onClick={() => void save()} disabled={isSaving}>
              <Trans>Save these settings</Trans>
            </Button>
          )}
        </>
      )}
    </div>
  )
}
