import { I18n, type MessageDescriptor, type Messages } from '@lingui/core'
import { describe, expect, it } from 'vitest'
import { messages as enMessages } from '../locales/en.po'
import { messages as koMessages } from '../locales/ko.po'
import { messages as zhMessages } from '../locales/zh.po'
import { relativeTime, relativeTimeParts, relativeTimeRefreshMs } from './relative-time'

const second = 1000
const minute = 60 * second
const hour = 60 * minute
const day = 24 * hour
const now = Date.UTC(2026, 10, 25, 12, 0, 0)

function translatorFor(locale: string, messages: Messages) {
  const i18n = new I18n({ locale, messages: { [locale]: messages } })
  i18n.activate(locale)
  return (descriptor: MessageDescriptor) => i18n._(descriptor)
}

const en = translatorFor('en', enMessages)
const ko = translatorFor('ko', koMessages)
const zh = translatorFor('zh', zhMessages)
const ago = (elapsedMs: number, translate = en) => relativeTime(now - elapsedMs, now, translate)

describe('relativeTimeParts', () => {
  it('follows SPEC §9: just now under 30 s, then seconds, minutes, hours, days, months, years', () => {
    const cases: [number, string, number][] = [
      [0, 'now', 0],
      [29 * second + 999, 'now', 0],
      [30 * second, 'second', 30],
      [59 * second, 'second', 59],
      [minute, 'minute', 1],
      [59 * minute, 'minute', 59],
      [hour, 'hour', 1],
      [23 * hour, 'hour', 23],
      [day, 'day', 1],
      [30 * day, 'day', 30],
      [31 * day, 'month', 1],
      [359 * day, 'month', 11],
      [360 * day, 'year', 1],
      [800 * day, 'year', 2],
    ]
    for (const [elapsedMs, unit, count] of cases) {
      expect(relativeTimeParts(now - elapsedMs, now), `${elapsedMs} ms`).toEqual({ unit, count })
    }
  })

  it('treats a time slightly in the future as now', () => {
    expect(relativeTimeParts(now + 5 * minute, now)).toEqual({ unit: 'now', count: 0 })
  })
})

describe('relativeTime in English', () => {
  it('uses singular and plural forms', () => {
    expect(ago(10 * second)).toBe('just now')
    expect(ago(45 * second)).toBe('45 seconds ago')
    expect(ago(minute)).toBe('1 minute ago')
    expect(ago(5 * minute)).toBe('5 minutes ago')
    expect(ago(hour)).toBe('1 hour ago')
    expect(ago(3 * hour)).toBe('3 hours ago')
    expect(ago(day)).toBe('1 day ago')
    expect(ago(30 * day)).toBe('30 days ago')
    expect(ago(31 * day)).toBe('1 month ago')
    expect(ago(200 * day)).toBe('6 months ago')
    expect(ago(365 * day)).toBe('1 year ago')
    expect(ago(3 * 365 * day)).toBe('3 years ago')
  })
})

describe('relativeTime in Korean and Chinese', () => {
  it('reads naturally in Korean', () => {
    expect(ago(10 * second, ko)).toBe('방금 전')
    expect(ago(45 * second, ko)).toBe('45초 전')
    expect(ago(minute, ko)).toBe('1분 전')
    expect(ago(3 * hour, ko)).toBe('3시간 전')
    expect(ago(2 * day, ko)).toBe('2일 전')
    expect(ago(62 * day, ko)).toBe('2개월 전')
    expect(ago(2 * 365 * day, ko)).toBe('2년 전')
  })

  it('reads naturally in Chinese', () => {
    expect(ago(10 * second, zh)).toBe('刚刚')
    expect(ago(45 * second, zh)).toBe('45秒前')
    expect(ago(minute, zh)).toBe('1分钟前')
    expect(ago(3 * hour, zh)).toBe('3小时前')
    expect(ago(2 * day, zh)).toBe('2天前')
    expect(ago(62 * day, zh)).toBe('2个月前')
    expect(ago(2 * 365 * day, zh)).toBe('2年前')
  })
})

describe('relativeTimeRefreshMs', () => {
  it('refreshes each second while seconds show, then less often', () => {
    expect(relativeTimeRefreshMs(now - 10 * second, now)).toBe(second)
    expect(relativeTimeRefreshMs(now - 10 * minute, now)).toBe(15 * second)
    expect(relativeTimeRefreshMs(now - 10 * hour, now)).toBe(minute)
  })
})
