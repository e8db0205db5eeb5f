import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const pagesRoot = fileURLToPath(new URL('./pages/', import.meta.url))

/**
 * Production build of the benchmark pages (not of the app): the engine and workers are bundled
 * exactly as the app bundles them, but no React or lingui is involved. Output: dist/bench.
 */
export default defineConfig({
  root: pagesRoot,
  base: './',
  logLevel: 'warn',
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('../dist/bench/', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    rollupOptions: { input: { unzip: `${pagesRoot}unzip.html` } },
  },
})
