import { describe, expect, it } from 'vitest'
import { viewerText } from './viewer-text'

describe('viewerText', () => {
  it('counts in English with singular and plural forms', () => {
    const en = viewerText('en-US')
    expect(en.shown(1, 1)).toBe('1 model, 1 POI')
    expect(en.shown(2, 0)).toBe('2 models, 0 POIs')
    expect(en.cityShown(1, 0, 3)).toBe('1 tileset, 3 POIs')
    expect(en.cityShown(2, 1, 1)).toBe('2 tilesets, 1 model, 1 POI')
    expect(en.network(1)).toBe('Indoor network: 1 state')
  })

  it('says "trial" only over a trial package', () => {
    for (const language of ['ko', 'zh', 'en']) {
      const text = viewerText(language)
      expect(text.trialWatermark).not.toBe(text.watermark)
    }
    expect(viewerText('en').trialWatermark).toBe('Twinscape trial')
    expect(viewerText('en').watermark).toBe('Made with Twinscape')
    expect(viewerText('ko').watermark).not.toContain('체험판')
    expect(viewerText('zh').watermark).not.toContain('试用')
  })

  it("speaks the browser's language, English when it is none of the three", () => {
    expect(viewerText('ko-KR').shown(1, 2)).toBe('모델 1개, POI 2개')
    expect(viewerText('zh-CN').noPois).toBe('此项目没有 POI。')
    expect(viewerText('fr-FR').noPois).toBe('This project has no POIs.')
  })
})
