import { screen } from '@testing-library/react'
import { afterAll, describe, expect, it } from 'vitest'
import { activateLanguage } from '../i18n/i18n'
import { FileChoiceFace } from './FileChoiceFace'
import { renderWithI18n } from './testing/render-with-i18n'

describe('a file field’s face', () => {
  afterAll(() => activateLanguage('en'))

  it('speaks the console’s language, not the browser’s, and names the chosen file', async () => {
    await activateLanguage('ko')
    const view = renderWithI18n(
      <label>
        모델 올리기
        <input type="file" className="ts-visually-hidden" multiple />
        <FileChoiceFace isMultiple fileNames={[]} />
      </label>,
    )
    expect(screen.getByText('파일 여러 개 선택…')).toBeTruthy()
    expect(screen.getByText('선택한 파일 없음')).toBeTruthy()
    // the file input itself is still the labelled control a person (or a test) uses
    expect(screen.getByLabelText(/모델 올리기/).getAttribute('type')).toBe('file')
    view.unmount()
    await activateLanguage('zh')
    renderWithI18n(<FileChoiceFace fileNames={['cube.glb']} />)
    expect(screen.getByText('选择文件…')).toBeTruthy()
    expect(screen.getByText('cube.glb')).toBeTruthy()
  })
})
