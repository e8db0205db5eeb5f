import { lingui } from '@lingui/vite-plugin'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { linguiMacro } from './tools/vite-lingui-macro'
import { precompress } from './tools/vite-precompress'

/**
 * The web app build. The lingui macro runs in Babel *before* react() so that <Trans> and t``
 * are compiled away before JSX is transformed (stack-notes.md). precompress() writes brotli and
 * gzip copies of the output that the server sends to browsers that accept them.
 */
export default defineConfig({
  plugins: [linguiMacro(), react(), lingui(), precompress()],
  worker: { format: 'es' },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
  },
  server: { proxy: { '/web': 'http://127.0.0.1:8080' } },
})
