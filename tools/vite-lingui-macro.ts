import { type PluginItem, transformAsync } from '@babel/core'
import type { Plugin } from 'vite'

const sourceFile = /\.[cm]?[jt]sx?$/
const typeScriptFile = /\.[cm]?tsx?$/

/**
 * Compiles lingui's macros (`t`, `<Trans>`, `msg` from `@lingui/*\/macro`) with Babel before
 * anything else sees the file, as `@lingui/babel-plugin-lingui-macro` documents. Before JSX is
 * transformed, so it runs first (`enforce: 'pre'`); only files that import a macro are parsed.
 * Written here rather than taken from `@rolldown/plugin-babel`, whose every release declares
 * Node ≥ 22.12 while the project runs on Node 20 (issue 14 item 9).
 */
export function linguiMacro(): Plugin {
  return {
    name: 'twinscape:lingui-macro',
    enforce: 'pre',
    async transform(code, id) {
      const path = id.split('?')[0] ?? id
      if (!sourceFile.test(path) || path.includes('/node_modules/')) return null
      if (!code.includes('@lingui/') || !code.includes('/macro')) return null
      const isTypeScript = typeScriptFile.test(path)
      // `.ts` files must not be parsed as JSX: `<T>(value)` is a type assertion there.
      const syntax: ('typescript' | 'jsx')[] = isTypeScript ? ['typescript'] : ['jsx']
      if (isTypeScript && path.endsWith('x')) syntax.push('jsx')
      const plugins: PluginItem[] = ['@lingui/babel-plugin-lingui-macro']
      const result = await transformAsync(code, {
        filename: path,
        babelrc: false,
        configFile: false,
        sourceMaps: true,
        parserOpts: { plugins: syntax },
        plugins,
      })
      if (!result?.code) return null
      return { code: result.code, map: result.map ?? null }
    },
  }
}
