/**
 * `--plugin`: the models of the app's plugins, for `sesame migrate` and `sesame schema`. Each value
 * is a file (a path, relative to the current directory) or a package, imported as the app would;
 * its default export is a plugin, a list of plugins, or the app's configuration (its `plugins`).
 * A file must be JavaScript (`.js`, `.mjs`), or run the command under a loader that imports
 * TypeScript (`node --import tsx node_modules/.bin/sesame …`).
 *
 * @module
 */
import { createRequire } from "node:module"
import { isAbsolute, join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { modelsOf, type SesameModule } from "@sesame/core"
import type { ModelDeclaration } from "@sesame/core/adapters"
import { usageError } from "./errors.js"

function isPlugin(value: unknown): value is SesameModule {
  return typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string"
}

/** The plugins `value` holds: itself, its items, or its `plugins`. */
function pluginsIn(value: unknown, specifier: string): SesameModule[] {
  if (isPlugin(value)) return [value]
  const list = Array.isArray(value) ? value : (value as { plugins?: unknown } | null)?.plugins
  if (Array.isArray(list) && list.every(isPlugin)) return list
  throw usageError(`--plugin ${specifier}: its default export must be a plugin, a list of plugins, or the configuration with \`plugins\`.`)
}

/** Imports each of `specifiers` from `cwd`; the models of their plugins, in order. */
export async function pluginModels(specifiers: readonly string[], cwd: string): Promise<ModelDeclaration[]> {
  const plugins: SesameModule[] = []
  for (const specifier of specifiers) {
    const path = specifier.startsWith(".") || isAbsolute(specifier) ? resolve(cwd, specifier) : undefined
    let url: string
    try {
      url = pathToFileURL(path ?? createRequire(join(cwd, "noop.js")).resolve(specifier)).href
    } catch {
      throw usageError(`--plugin ${specifier}: no such package from ${cwd}.`)
    }
    let loaded: { default?: unknown }
    try {
      loaded = (await import(url)) as { default?: unknown }
    } catch (error) {
      throw usageError(`--plugin ${specifier} could not be imported: ${error instanceof Error ? error.message : String(error)}`)
    }
    plugins.push(...pluginsIn(loaded.default, specifier))
  }
  return modelsOf({ plugins })
}
