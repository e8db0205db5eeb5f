import { lingui } from '@lingui/vite-plugin'
import { playwright } from '@vitest/browser-playwright'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'
import { chromiumArgs, chromiumExecutablePath } from './tools/chromium'
import { linguiMacro } from './tools/vite-lingui-macro'

const webPlugins = () => [linguiMacro(), react(), lingui()]

/**
 * Three projects:
 * - node: server (through inject on a real database), contract, workers' pure modules, engine, tools
 * - dom: React components and the web core, in happy-dom
 * - browser: the few tests that need a real browser (a real `new Worker()`), in Debian Chromium
 */
// CI retries a failed test once, as Playwright does there; the closing summary names every test
// that passed only on its retry (tools/summarise-tests.mjs), so a flaky test stays visible.
const retry = process.env.CI ? 1 : 0

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['{server,contract,workers,engine,tools,bench,deploy}/**/*.test.ts'],
          exclude: ['**/*.browser.test.ts', '**/*.fuzz.test.ts', '**/node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          retry,
        },
      },
      {
        // Run alone (tools/test-all.sh, .ci/run), after the other suites: it measures how fast
        // /web/health answers while every route is fuzzed, which other suites' CPU would blur.
        test: {
          name: 'fuzz',
          environment: 'node',
          include: ['server/**/*.fuzz.test.ts'],
          testTimeout: 1_200_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: webPlugins(),
        test: {
          name: 'dom',
          environment: 'happy-dom',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: ['**/*.browser.test.{ts,tsx}'],
          setupFiles: ['src/testing/setup-dom.ts'],
          testTimeout: 20_000,
          retry,
        },
      },
      {
        plugins: webPlugins(),
        worker: { format: 'es' },
        // Pre-bundle up front: a dependency discovered mid-run makes Vite reload and can leave
        // two copies of React in one page ("Invalid hook call").
        optimizeDeps: {
          include: [
            'react',
            'react/jsx-runtime',
            'react/jsx-dev-runtime',
            'react-dom',
            'react-dom/client',
            'radix-ui',
            '@lingui/core',
            '@lingui/react',
            'valtio',
            // found at run time otherwise: Vite then re-optimizes and reloads the page mid-run,
            // failing whatever test had a worker loading (CI saw a 'worker failed' that way)
            'valtio/utils',
            'comlink',
            'fflate',
            'maplibre-gl',
            'three',
            'three-mesh-bvh',
            'saxes',
            'meshoptimizer/decoder',
            '@deck.gl/core',
            '@deck.gl/geo-layers',
            '@deck.gl/maplibre',
            '@deck.gl/mesh-layers',
            '@loaders.gl/3d-tiles',
            '@loaders.gl/core',
            '@loaders.gl/tiles',
            '@luma.gl/webgl',
            '@math.gl/core',
            '@math.gl/geospatial',
            '@maplibre/maplibre-gl-style-spec',
            'pmtiles',
            'wouter',
            'tus-js-client',
            'hls.js',
          ],
        },
        // Browser tests may read the shared test data beside the repository (../shared/data).
        server: { fs: { allow: ['.', '../shared/data'] } },
        test: {
          name: 'browser',
          include: ['{src,engine,workers}/**/*.browser.test.{ts,tsx}'],
          testTimeout: 60_000,
          retry,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: { executablePath: chromiumExecutablePath, args: chromiumArgs },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
})
