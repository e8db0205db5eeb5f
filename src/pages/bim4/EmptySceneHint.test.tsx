import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { EmptySceneHint } from './EmptySceneHint'

describe('EmptySceneHint (a new building project)', () => {
  it('tells a person with an empty scene to start in the Model module, with a link there', () => {
    renderWithI18n(<EmptySceneHint isSceneEmpty moduleId="poi" />)
    expect(screen.getByText('This building has no models yet')).toBeTruthy()
    const link = screen.getByRole('link', { name: 'Open the Model module' })
    expect(link.getAttribute('href')).toContain('/bim4/model/library')
  })

  it('stays hidden for a scene with content, and in the model and GML modules that fill it', () => {
    const { container, rerender } = renderWithI18n(
      <EmptySceneHint isSceneEmpty={false} moduleId="poi" />,
    )
    expect(container.textContent).toBe('')
    rerender(<EmptySceneHint isSceneEmpty moduleId="model" />)
    expect(container.textContent).toBe('')
    rerender(<EmptySceneHint isSceneEmpty moduleId="gml" />)
    expect(container.textContent).toBe('')
  })
})
