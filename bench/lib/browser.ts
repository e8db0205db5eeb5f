import { type Browser, chromium } from 'playwright-core'
import { chromiumArgs, chromiumExecutablePath } from '../../tools/chromium'

/**
 * Debian Chromium as every test launches it (tools/chromium.ts), plus what benchmarks need: no
 * frame-rate cap, no throttling of a page that headless Chromium considers hidden, and `gc()`
 * so each timed run starts from a collected heap.
 */
export function launchBenchBrowser(
  options: { isFrameRateLimited?: boolean; extraJsFlags?: string } = {},
): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumExecutablePath,
    headless: true,
    args: [
      ...chromiumArgs,
      // Frame benchmarks keep the display's pacing: without vsync, headless Chromium may stop
      // reporting the WebGL fences the map paces itself by (paceGpuFrames) as signalled, and
      // the map then draws only at its time bound (10 frames per second).
      ...(options.isFrameRateLimited ? [] : ['--disable-frame-rate-limit', '--disable-gpu-vsync']),
      '--disable-background-timer-throttling',
      '--disable-renderer-backgrounding',
      `--js-flags=--expose-gc${options.extraJsFlags ? ` ${options.extraJsFlags}` : ''}`,
    ],
  })
}
