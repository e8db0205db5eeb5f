import { defineConfig } from 'vite'

/**
 * The offline package's viewer (engine/offline-viewer): one classic script, no chunks, no
 * module syntax, because Chromium runs neither module scripts nor workers from `file://`.
 * The server copies dist/offline-viewer/viewer.js into every package.
 */
export default defineConfig({
  publicDir: false,
  build: {
    outDir: 'dist/offline-viewer',
    emptyOutDir: true,
    sourcemap: false,
    lib: {
      entry: 'engine/offline-viewer/main.ts',
      formats: ['iife'],
      name: 'TwinscapeOfflineViewer',
      fileName: () => 'viewer.js',
    },
  },
})
