import { build } from 'vite'
import { fileURLToPath } from 'node:url'
const pageRoot = fileURLToPath(new URL('./city/page/', import.meta.url))
const outDir = fileURLToPath(new URL('../dist/bench-city/', import.meta.url))
await build({ configFile: false, root: pageRoot, base: './', logLevel: 'warn', worker: { format: 'es' },
  build: { outDir, emptyOutDir: false, target: 'es2022', minify: false, sourcemap: false, rollupOptions: { input: { city: `${pageRoot}city.html` } } } })
