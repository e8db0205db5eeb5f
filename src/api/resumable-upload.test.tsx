import { i18n } from '@lingui/core'
import { act, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { OK_CODE, OVERTIME_CODE } from '../../contract/errors'
import { gmlRoutes } from '../../contract/gml'
import { messages as enMessages } from '../i18n/locales/en/messages.po'
import { messages as koMessages } from '../i18n/locales/ko/messages.po'
import { renderWithI18n } from '../ui/testing/render-with-i18n'
import { uploadStore } from '../ui/upload/upload-store'
import { UploadWindow } from '../ui/upload/UploadWindow'
import { ApiError } from './client'
import { createUploadTransport } from './resumable-transport'
import { fakeProgressFallbackMs, trackUploadRow } from './resumable-upload'

/**
 * A stand-in for the browser's XMLHttpRequest (happy-dom's would really connect): it records
 * the request and lets the test play the upload events and the answer.
 */
class ScriptedXhr {
  static last: ScriptedXhr | undefined
  method = ''
  url = ''
  headers: Record<string, string> = {}
  body: unknown
  timeout = 0
  status = 0
  statusText = ''
  responseText = ''
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null }
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  ontimeout: (() => void) | null = null
  onabort: (() => void) | null = null

  constructor() {
    ScriptedXhr.last = this
  }
  open(method: string, url: string) {
    this.method = method
    this.url = url
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value
  }
  send(body: unknown) {
    this.body = body
  }
  abort() {
    this.onabort?.()
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent)
  }
  answer(status: number, body: unknown) {
    this.status = status
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body)
    this.onload?.()
  }
}

const sentRequest = (): ScriptedXhr => {
  if (!ScriptedXhr.last) throw new Error('no request was sent')
  return ScriptedXhr.last
}

describe('postWithProgress', () => {
  let sessionTimeouts = 0
  const transport = createUploadTransport({
    getToken: () => 'user-token',
    onSessionTimeout: () => {
      sessionTimeouts += 1
    },
  })

  beforeEach(() => {
    sessionTimeouts = 0
    ScriptedXhr.last = undefined
    vi.stubGlobal('XMLHttpRequest', ScriptedXhr)
  })
  afterEach(() => vi.unstubAllGlobals())

  it('posts the form under /web with the token and reports the bytes sent', async () => {
    const form = new FormData()
    form.append('project_id', 'p1')
    const progress: Array<[number, number]> = []
    const answer = transport.postWithProgress(gmlRoutes.uploadGml, form, (sentBytes, totalBytes) =>
      progress.push([sentBytes, totalBytes]),
    )
    const request = sentRequest()
    expect(request).toMatchObject({ method: 'POST', url: '/web/upload/uploadGml', body: form })
    expect(request.headers.Token).toBe('user-token')
    request.progress(100, 400)
    request.progress(400, 400)
    request.answer(200, { code: OK_CODE, message: 'ok', datum: { state_count: 14 } })
    await expect(answer).resolves.toEqual({ state_count: 14 })
    expect(progress).toEqual([
      [100, 400],
      [400, 400],
    ])
  })

  it("rejects with the server's envelope, and reports '2011'", async () => {
    const refused = transport.postWithProgress(gmlRoutes.uploadGml, new FormData())
    sentRequest().answer(415, {
      code: '1015',
      message: 'GML file refused: GML has no navigation network',
      datum: null,
    })
    const error = await refused.catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({
      reason: 'server',
      code: '1015',
      httpStatus: 415,
      message: 'GML file refused: GML has no navigation network',
    })

    const expired = transport.postWithProgress(gmlRoutes.uploadGml, new FormData())
    sentRequest().answer(401, { code: OVERTIME_CODE, message: 'timed out', datum: null })
    await expect(expired).rejects.toMatchObject({ code: OVERTIME_CODE })
    expect(sessionTimeouts).toBe(1)
  })

  it('rejects as aborted when its signal fires, and as network for a proxy page', async () => {
    const controller = new AbortController()
    const cancelled = transport.postWithProgress(gmlRoutes.uploadGml, new FormData(), undefined, {
      signal: controller.signal,
    })
    controller.abort()
    await expect(cancelled).rejects.toMatchObject({ reason: 'aborted' })

    const proxied = transport.postWithProgress(gmlRoutes.uploadGml, new FormData())
    sentRequest().answer(502, '<html>Bad gateway</html>')
    await expect(proxied).rejects.toMatchObject({ reason: 'network', httpStatus: 502 })
  })
})

describe('trackUploadRow', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    uploadStore.open()
    uploadStore.add({ id: 'row', name: 'tiles.zip', sizeBytes: 4_000 })
  })
  afterEach(() => {
    vi.useRealTimers()
    uploadStore.close()
  })

  const row = () => uploadStore.rows[0]

  it('moves the row with the real bytes and never fakes progress then', () => {
    const tracker = trackUploadRow('row')
    expect(row()).toMatchObject({ status: 'uploading', progressPercent: 0 })
    tracker.onProgress(1_000, 4_000)
    expect(row()).toMatchObject({ progressPercent: 25, sentBytes: 1_000 })
    vi.advanceTimersByTime(fakeProgressFallbackMs * 5)
    expect(row()?.progressPercent).toBe(25)
    tracker.succeed()
    expect(row()).toMatchObject({ status: 'success', progressPercent: 100 })
  })

  it('falls back to the 10→90 % ticks only while no progress is reported', () => {
    const tracker = trackUploadRow('row')
    vi.advanceTimersByTime(fakeProgressFallbackMs)
    expect(row()?.progressPercent).toBe(10)
    vi.advanceTimersByTime(16 * 20)
    expect(row()?.progressPercent).toBe(30)
    tracker.onProgress(3_000, 4_000)
    vi.advanceTimersByTime(16 * 20)
    expect(row()?.progressPercent).toBe(75)
    tracker.fail(new Error('GML file refused: not XML'))
    expect(row()?.status).toBe('failure')
    expect(row()?.errorMessage?.()).toBe('GML file refused: not XML')
  })
})

describe('UploadWindow with real progress', () => {
  afterEach(() => act(() => uploadStore.close()))

  it('shows the bytes sent beside the size, and the reason of a failure', async () => {
    renderWithI18n(<UploadWindow />)
    await act(async () => {
      uploadStore.open()
      uploadStore.add({ id: 'a', name: 'city.3tz', sizeBytes: 4 * 1024 * 1024 })
      uploadStore.update('a', {
        status: 'uploading',
        progressPercent: 25,
        sentBytes: 1024 * 1024,
      })
    })
    expect(screen.getByText('1.0 MB / 4.0 MB')).toBeTruthy()
    expect(screen.getByText('25%')).toBeTruthy()
    await act(async () => {
      uploadStore.update('a', { status: 'failure', errorMessage: () => 'The upload timed out.' })
    })
    expect(screen.getByText('failure').getAttribute('title')).toBe('The upload timed out.')
    expect(screen.getByText('4.0 MB')).toBeTruthy()
  })

  it('says a failed row’s server reason again in the language the user switches to', async () => {
    renderWithI18n(<UploadWindow />)
    const refusal = new ApiError({
      reason: 'server',
      envelope: {
        code: '1000',
        message: 'house.json is not valid JSON.',
        messageId: 'model.structureInvalidJson',
        params: { name: 'house.json' },
        datum: null,
      },
      httpStatus: 400,
      fallbackMessage: '',
    })
    await act(async () => {
      uploadStore.open()
      uploadStore.add({ id: 'b', name: 'house.json', sizeBytes: 10 })
      trackUploadRow('b').fail(refusal)
    })
    expect(screen.getByRole('note').textContent).toBe('house.json is not valid JSON.')
    try {
      await act(async () => i18n.loadAndActivate({ locale: 'ko', messages: koMessages }))
      expect(screen.getByRole('note').textContent).toBe('house.json은(는) 올바른 JSON이 아닙니다.')
    } finally {
      await act(async () => i18n.loadAndActivate({ locale: 'en', messages: enMessages }))
    }
  })
})
