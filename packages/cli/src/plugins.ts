/**
 * `--plugin`: what the app declares for its database, for `sesame migrate` and `sesame schema`.
 * Each value is a file (a path, relative to the current directory) or a package, imported as the
 * app would; its default export is a plugin, a list of plugins, or the app's configuration (such
 * as `auth.config.js`), whose `plugins` declare models and whose `user.fields` declare columns of
 * the users table (their model is the core's `userModel`). One configuration at most may declare
 * user fields. A file must be JavaScript (`.js`, `.mjs`), or run the command under a loader that
 * imports TypeScript (`node --import tsx node_modules/.bin/sesame …`).
 *
 * @module
 */
import { createRequire } from "node:module"
import { isAbsolute, join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { modelsOf, type SesameModule } from "@sesame/core"
import type { ModelDeclaration, UserFieldDeclarations } from "@sesame/core/adapters"
import { usageError } from "./errors.js"
import { userFieldsModel } from "./user-fields.js"

function isPlugin(value: unknown): value is SesameModule {
  return typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string"
}

/** The parts of the app's configuration the CLI reads. */
interface Configuration {
  plugins?: SesameModule[]
  user?: { fields?: UserFieldDeclarations }
  session?: { revocation?: boolean | { cache?: number } }
}

/** Whether `value` is a configuration: its `plugins` (if any) are plugins, and it has them, `user` or `session`. */
function isConfiguration(value: unknown): value is Configuration {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false
  const { plugins, user, session } = value as { plugins?: unknown; user?: unknown; session?: unknown }
  if (plugins !== undefined && !(Array.isArray(plugins) && plugins.every(isPlugin))) return false
  return plugins !== undefined || (typeof user === "object" && user !== null) || (typeof session === "object" && session !== null)
}

/**
 * What a module's default export declares: plugins, the user fields of a configuration (none when
 * it declares none), and its session options (`session.revocation` has a model).
 */
function declarationsIn(value: unknown, specifier: string): { plugins: SesameModule[]; fields?: UserFieldDeclarations; session?: Configuration["session"] } {
  if (isPlugin(value)) return { plugins: [value] }
  if (Array.isArray(value) && value.every(isPlugin)) return { plugins: value }
  if (isConfiguration(value)) {
    const fields = value.user?.fields
    return { plugins: value.plugins ?? [], ...(fields !== undefined && Object.keys(fields).length > 0 ? { fields } : {}), ...(value.session ? { session: value.session } : {}) }
  }
  throw usageError(`--plugin ${specifier}: its default export must be a plugin, a list of plugins, or the configuration, with \`plugins\`, \`user.fields\` or \`session\`.`)
}

/** The default export of `specifier`, imported from `cwd`. */
async function importDefault(specifier: string, cwd: string): Promise<unknown> {
  const path = specifier.startsWith(".") || isAbsolute(specifier) ? resolve(cwd, specifier) : undefined
  let url: string
  try {
    url = pathToFileURL(path ?? createRequire(join(cwd, "noop.js")).resolve(specifier)).href
  } catch {
    throw usageError(`--plugin ${specifier}: no such package from ${cwd}.`)
  }
  try {
    return ((await import(url)) as { default?: unknown }).default
  } catch (error) {
    throw usageError(`--plugin ${specifier} could not be imported: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/**
 * Imports each of `specifiers` from `cwd`: the models of their plugins, in order (and the core's
 * model of ended JWT sessions when a configuration turns `session.revocation` on), then the user
 * fields' model when a configuration declares them (`isUserModel` tells it apart). Two
 * configurations with user fields, or a field that cannot be stored, are usage errors.
 */
export async function declaredModels(specifiers: readonly string[], cwd: string): Promise<ModelDeclaration[]> {
  const plugins: SesameModule[] = []
  let userFields: { specifier: string; model: ModelDeclaration } | undefined
  let session: Configuration["session"]
  for (const specifier of specifiers) {
    const declared = declarationsIn(await importDefault(specifier, cwd), specifier)
    plugins.push(...declared.plugins)
    // One configuration with `session.revocation` on is enough for its model.
    if (declared.session?.revocation) session = declared.session
    if (declared.fields === undefined) continue
    if (userFields) throw usageError(`--plugin ${userFields.specifier} and --plugin ${specifier} both declare \`user.fields\`: give the app's one configuration.`)
    userFields = { specifier, model: userFieldsModel(declared.fields, specifier) }
  }
  return [...modelsOf({ plugins, session }), ...(userFields ? [userFields.model] : [])]
}
