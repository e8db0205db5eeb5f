/**
 * The part of @babel/core's API that tools/vite-lingui-macro.ts uses (the package ships no
 * types, and @types/babel__core would be a dependency for two functions' signatures).
 */
declare module '@babel/core' {
  /** A plugin by package name, or a name with its options. */
  export type PluginItem = string | [string, Record<string, unknown>]

  export interface TransformOptions {
    filename: string
    babelrc: boolean
    configFile: boolean
    sourceMaps: boolean
    parserOpts: { plugins: string[] }
    plugins: PluginItem[]
  }

  export interface TransformResult {
    code?: string | null
    map?: {
      version: number
      sources: string[]
      names: string[]
      mappings: string
      file?: string
      sourcesContent?: string[]
    } | null
  }

  export function transformAsync(
    code: string,
    options: TransformOptions,
  ): Promise<TransformResult | null>
}
