/**
 * Calling a module's server function from the app's server code, with the request it is handling:
 * the one path every integration's `auth.api.<name>(...)` takes, whatever the module.
 *
 * @module
 */
import { MissingAdapterMethods } from "../errors.js"
import type { ModelDeclaration } from "../store/model.js"
import { serverContext } from "../http/server-context.js"
import type { AuthConfig, LazyAuthConfig } from "../types.js"
import { moduleRequest } from "./request.js"
import { revocationOn, sessionRevocationModel } from "../session/revocation.js"
import { withSessionParts } from "./resolve.js"

/**
 * Runs the server function `name` of the configuration's modules for `request`, with `args`.
 * Throws a `TypeError` when no module has one of that name, and `MissingAdapterMethods` when its
 * module is off (it stores data and the adapter has no store).
 *
 * @example
 * ```ts
 * const recent = await callModuleApi(request, config, "recentSignIns", { limit: 5 })
 * ```
 */
export async function callModuleApi(request: Request, config: AuthConfig | LazyAuthConfig, name: string, ...args: unknown[]): Promise<unknown> {
  const ctx = await serverContext(request, config)
  const found = ctx.config.modules.api.get(name)
  if (!found) throw new TypeError(`No plugin has a server function "${name}".`)
  if (found.off) throw new MissingAdapterMethods(`Plugin "${found.module.id}" is off: ${found.off}.`)
  return (found.fn as (...all: unknown[]) => Promise<unknown>)(moduleRequest(ctx, found.module, false), ...args)
}

/**
 * The models of a configuration's modules, for an adapter's `migrate(db, { models })` or
 * `sesame migrate`: those of modules that are off too, so that the tables exist when the adapter
 * gains a store; the core's model of session parts (`sessionPart`) when a module keeps them; and
 * the core's model of ended JWT sessions (`sessionRevocation`) with `session.revocation`.
 */
export function modelsOf(config: Pick<AuthConfig, "plugins" | "session">): ModelDeclaration[] {
  const models = withSessionParts(config.plugins, (config.plugins ?? []).flatMap((module) => [...(module.models ?? [])]))
  return revocationOn(config.session) ? [...models, sessionRevocationModel] : models
}

/** Server functions of the configuration's modules, by name, as an integration exposes them: the request supplied. */
export type ModuleApi = Readonly<Record<string, (...args: any[]) => Promise<any>>>

/**
 * The object behind every integration's `api`: `api.<name>(...args)` calls `call(name, args)`, which
 * the integration binds to the request it is handling (with {@link callModuleApi}). No code per module.
 */
export function moduleApi(call: (name: string, args: unknown[]) => Promise<unknown>): ModuleApi {
  return new Proxy(Object.freeze({}) as ModuleApi, {
    get: (_, name) => (typeof name === "string" && name !== "then" ? (...args: unknown[]) => call(name, args) : undefined),
  })
}
