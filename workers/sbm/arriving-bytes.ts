import { SbmDownloadError } from './sbm-error'

/**
 * A file whose bytes are still arriving: one buffer of the file's final size, filled front to
 * back from a stream, so the decoder can start on the views that are already in (issue 23.2:
 * fetching and decoding ran one after the other) and every view it takes is in its final place.
 * Bytes below `receivedBytes` never change again.
 */
export class ArrivingBytes {
  /** The whole file once complete; only `[0, receivedBytes)` is filled before that. */
  readonly bytes: Uint8Array<ArrayBuffer>
  private received = 0
  private failure: Error | null = null
  private readonly waiters: {
    atLeast: number
    resolve: () => void
    reject: (error: Error) => void
  }[] = []

  /**
   * True when this thread reads the bytes itself (a fetch here, fetched-bytes.ts): a decode then
   * yields to the thread's tasks between its steps ({@link betweenSteps}), or the body would be
   * read only when the decode runs out of bytes, and the network would stall meanwhile once the
   * browser's buffer for the body (a few MB) is full.
   */
  readonly readsHere: boolean

  constructor(byteLength: number, { readsHere = false }: { readsHere?: boolean } = {}) {
    this.bytes = new Uint8Array(byteLength)
    this.readsHere = readsHere
  }

  /**
   * Lets this thread's queued tasks run (the body's reads) when it reads the bytes itself;
   * resolves at once otherwise. A decode awaits it after each step.
   */
  betweenSteps(): Promise<void> {
    if (!this.readsHere || this.isComplete || this.failure) return Promise.resolve()
    return yieldToTasks()
  }

  /** How many bytes from the start have arrived. */
  get receivedBytes(): number {
    return this.received
  }

  /** True once every byte has arrived. */
  get isComplete(): boolean {
    return this.received === this.bytes.byteLength
  }

  /** True once the download failed (every wait rejects). */
  get hasFailed(): boolean {
    return this.failure !== null
  }

  /** Why the download failed, once it has. */
  get failureMessage(): string | null {
    return this.failure?.message ?? null
  }

  /** Resolves once the first `byteCount` bytes (capped at the file's size) have arrived. */
  whenReceived(byteCount: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure)
    const atLeast = Math.min(byteCount, this.bytes.byteLength)
    if (this.received >= atLeast) return Promise.resolve()
    return new Promise((resolve, reject) => this.waiters.push({ atLeast, resolve, reject }))
  }

  /** Appends the next bytes; more than the declared size is a failed download. */
  append(chunk: Uint8Array): void {
    if (this.received + chunk.byteLength > this.bytes.byteLength) {
      this.fail(new SbmDownloadError('download failed: more bytes than the declared length'))
      return
    }
    this.bytes.set(chunk, this.received)
    this.received += chunk.byteLength
    for (let index = this.waiters.length - 1; index >= 0; index--) {
      const waiter = this.waiters[index]!
      if (this.received < waiter.atLeast) continue
      this.waiters.splice(index, 1)
      waiter.resolve()
    }
  }

  /** Ends the stream with an error: every wait, now or later, rejects with it. */
  fail(error: Error): void {
    if (this.failure) return
    this.failure = error
    for (const waiter of this.waiters.splice(0)) waiter.reject(error)
  }

  /**
   * Reads `stream` to its end into this buffer, telling `onReceived` the bytes in so far and the
   * chunk just copied into place (free to move on); a short or failed stream fails every wait.
   * With `reuseChunks` a byte stream is read into one reused 1 MiB buffer instead of a fresh
   * buffer per chunk (`onReceived` then gets no chunk): a fetch body is such a stream in
   * Chromium, and 28 MB of chunks less to allocate is CPU off the thread that decodes.
   */
  async fill(
    stream: ReadableStream<Uint8Array>,
    onReceived?: (receivedBytes: number, chunk: Uint8Array | null) => void,
    { reuseChunks = false }: { reuseChunks?: boolean } = {},
  ): Promise<void> {
    let reusable: Uint8Array<ArrayBuffer> | null = null
    let reader: ReadableStreamDefaultReader<Uint8Array> | ReadableStreamBYOBReader
    try {
      reader = reuseChunks ? stream.getReader({ mode: 'byob' }) : stream.getReader()
      if (reuseChunks) reusable = new Uint8Array(new ArrayBuffer(1024 * 1024))
    } catch {
      // Not a byte stream: read its chunks as they come.
      reader = stream.getReader()
    }
    try {
      for (;;) {
        const { done, value } = reusable
          ? await (reader as ReadableStreamBYOBReader).read(reusable)
          : await (reader as ReadableStreamDefaultReader<Uint8Array>).read()
        if (done || !value) break
        this.append(value)
        // A read takes the buffer it filled and gives it back in `value`: the next read reuses it.
        if (reusable) reusable = new Uint8Array(value.buffer as ArrayBuffer)
        if (!this.failure) onReceived?.(this.received, reusable ? null : value)
        if (this.failure) {
          void reader.cancel()
          return
        }
      }
    } catch (error) {
      this.fail(new SbmDownloadError(`download failed: ${(error as Error).message}`))
      return
    }
    if (!this.isComplete) {
      this.fail(
        new SbmDownloadError(
          `download failed: ${this.received} of ${this.bytes.byteLength} bytes arrived`,
        ),
      )
    }
  }
}

/**
 * Resolves after the tasks already queued on this thread have had their turn: a message to
 * itself (not a timer, which browsers clamp to 4 ms once nested, nor `scheduler.yield()`, whose
 * continuation runs ahead of the other queued tasks).
 */
export function yieldToTasks(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      channel.port2.close()
      resolve()
    }
    channel.port2.postMessage(null)
  })
}

/**
 * Fetches a model inside a worker. With a plain Content-Length the body streams into an
 * {@link ArrivingBytes} (filling in the background; the answer comes with the headers); a
 * compressed or unsized response is read whole. Failures are {@link SbmDownloadError}.
 */
export async function fetchArrivingModel(url: string): Promise<ArrivingBytes | Uint8Array> {
  let response: Response
  try {
    response = await fetch(url)
  } catch (error) {
    throw new SbmDownloadError(`download failed: ${(error as Error).message}`)
  }
  if (!response.ok) throw new SbmDownloadError(`download failed: HTTP ${response.status}`)
  const declared = Number(response.headers.get('content-length'))
  // A compressed response's Content-Length counts encoded bytes, not the bytes read here.
  const isEncoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity'
  if (!response.body || isEncoded || !Number.isSafeInteger(declared) || declared <= 0) {
    try {
      return new Uint8Array(await response.arrayBuffer())
    } catch (error) {
      throw new SbmDownloadError(`download failed: ${(error as Error).message}`)
    }
  }
  const arriving = new ArrivingBytes(declared)
  void arriving.fill(response.body)
  return arriving
}
