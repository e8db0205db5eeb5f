import { fireEvent, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { renderWithI18n } from '../testing/render-with-i18n'
import { ImagePicker } from './ImagePicker'
import { imageUploadLimitBytes } from './image-validation'

/** A File of `sizeBytes` without allocating it: only `size` is read before upload. */
function fileOf(name: string, type: string, sizeBytes: number): File {
  const file = new File(['x'], name, { type })
  Object.defineProperty(file, 'size', { value: sizeBytes })
  return file
}

beforeAll(() => {
  URL.createObjectURL ??= () => 'blob:preview'
  URL.revokeObjectURL ??= () => {}
})

function renderPicker() {
  const onPick = vi.fn()
  const onReject = vi.fn()
  renderWithI18n(<ImagePicker label="Cover image" onPick={onPick} onReject={onReject} />)
  const input = document.querySelector('input[type=file]') as HTMLInputElement
  return { onPick, onReject, input }
}

describe('ImagePicker', () => {
  it('offers only JPEG and PNG in the file dialog', () => {
    const { input } = renderPicker()
    expect(input.accept.split(',')).toEqual(
      expect.arrayContaining(['image/jpeg', 'image/png', '.jpg', '.jpeg', '.png']),
    )
  })

  it('hands over a valid image and previews it', async () => {
    const { onPick, input } = renderPicker()
    const cover = fileOf('cover.png', 'image/png', 300_000)
    await userEvent.upload(input, cover)
    expect(onPick).toHaveBeenCalledWith(cover)
    expect(screen.getByRole('img', { name: 'Preview' })).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.getByRole('button', { name: 'Change image' })).toBeTruthy()
  })

  it('blocks an image of 2 MB or more and says so', async () => {
    const { onPick, onReject, input } = renderPicker()
    await userEvent.upload(input, fileOf('big.jpg', 'image/jpeg', imageUploadLimitBytes))
    expect(onPick).not.toHaveBeenCalled()
    expect(onReject).toHaveBeenCalledWith('size', expect.any(File))
    expect(screen.getByRole('alert').textContent).toBe('Image size is over 2MB!')
  })

  it('blocks a file that is not JPEG or PNG and says so', () => {
    const { onPick, input } = renderPicker()
    // fireEvent, because user-event itself honours `accept` and would drop the file.
    fireEvent.change(input, { target: { files: [fileOf('anim.gif', 'image/gif', 1000)] } })
    expect(onPick).not.toHaveBeenCalled()
    expect(screen.getByRole('alert').textContent).toBe('Only JPG and PNG images can be uploaded.')
  })

  it('clears the message once a valid image follows', async () => {
    const { onPick, input } = renderPicker()
    await userEvent.upload(input, fileOf('big.jpg', 'image/jpeg', imageUploadLimitBytes * 2))
    await userEvent.upload(input, fileOf('ok.jpg', 'image/jpeg', 1000))
    expect(onPick).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('takes a dropped image through the same checks', () => {
    const { onPick } = renderPicker()
    const zone = document.querySelector('.ts-image-picker__zone') as HTMLElement
    fireEvent.drop(zone, {
      dataTransfer: { files: [fileOf('big.png', 'image/png', imageUploadLimitBytes)] },
    })
    expect(onPick).not.toHaveBeenCalled()
    expect(screen.getByRole('alert').textContent).toBe('Image size is over 2MB!')
  })
})
