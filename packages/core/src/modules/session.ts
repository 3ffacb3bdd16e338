/**
 * The modules' parts of the session (`SesameModule.session`): each module's answer under its id,
 * in the configured order. A module that throws is logged as `EventError` and left out, as its event
 * handlers are: a plugin's fault never ends a session.
 *
 * @module
 */
import { storageUnavailable } from "../adapters/unavailable.js"
import type { AdapterUser } from "../adapters/types.js"
import { EventError } from "../errors.js"
import type { JsonValue } from "../store/model.js"
import type { User } from "../types.js"
import type { ResolvedModules } from "./resolve.js"
import type { ModuleSessionInput, SesameModule } from "./types.js"

/**
 * `{ [id]: part }` for each module with a part for `user`; `previous` holds what the session held
 * for each (a JWT's claims, a database session's kept parts).
 */
export async function moduleSessionParts(
  modules: ResolvedModules,
  user: User | AdapterUser,
  trigger: ModuleSessionInput["trigger"],
  previous: Readonly<Record<string, unknown>> = {},
): Promise<Record<string, unknown>> {
  if (modules.sessions.length === 0) return {}
  const parts: Record<string, unknown> = {}
  for (const module of modules.sessions) {
    const held = Object.hasOwn(previous, module.id) ? { previous: previous[module.id] as JsonValue } : {}
    // An acting session's mark is the core's to keep (`session/acting.ts`): an answer that dropped
    // or changed it would make the acting session a plain one of the user, or another actor's.
    if (held.previous !== undefined && marksActing(modules, module, held.previous)) {
      parts[module.id] = held.previous
      continue
    }
    const part = await guarded(modules, module.id, "`session` threw; its part of the session is left out", () => module.session!({ ...modules.context, user, trigger, ...held }))
    if (part !== undefined) parts[module.id] = part
  }
  return parts
}

/** Whether `part` marks an acting session of `module` (`SesameModule.acting`); a throw says no. */
function marksActing(modules: ResolvedModules, module: SesameModule, part: JsonValue): boolean {
  if (!module.acting) return false
  try {
    return module.acting(part) !== undefined
  } catch (error) {
    modules.context.logger.error(new EventError(`Plugin "${module.id}"'s \`acting\` threw.`, { cause: error }))
    return false
  }
}

/**
 * `ask()`, a plugin's hook; undefined when it throws, which is logged as `EventError` (`failure`
 * says what follows): a plugin's fault never ends a session or refuses a token, but an acting
 * session, which its plugin must vouch for, ends (`session/acting.ts`). A storage that cannot be
 * reached is the request's 503 instead, not an answer without the plugin's word.
 */
export async function guarded<T>(modules: ResolvedModules, id: string, failure: string, ask: () => T | PromiseLike<T>): Promise<T | undefined> {
  try {
    return await ask()
  } catch (error) {
    const unavailable = storageUnavailable(error)
    if (unavailable) throw unavailable
    modules.context.logger.error(new EventError(`Plugin "${id}"'s ${failure}.`, { cause: error }))
    return undefined
  }
}

/** The modules' parts a JWT carries (its claims named by the modules' ids). */
export function tokenSessionParts(modules: ResolvedModules, token: Record<string, unknown>): Record<string, unknown> {
  if (modules.sessions.length === 0) return {}
  return Object.fromEntries(modules.sessions.flatMap((m) => (Object.hasOwn(token, m.id) && token[m.id] !== undefined ? [[m.id, token[m.id]]] : [])))
}

/** `token` with the modules' claims replaced by `parts`: a module's claim is only ever its own answer. */
export function withModuleClaims<T extends Record<string, unknown>>(modules: ResolvedModules, token: T, parts: Record<string, unknown>): T {
  if (modules.sessions.length === 0) return token
  const rest = Object.fromEntries(Object.entries(token).filter(([claim]) => !modules.sessions.some((m) => m.id === claim)))
  return { ...rest, ...parts } as T
}

/**
 * The claims the modules add to an API token for `session` (`SesameModule.tokenClaims`), in the
 * configured order. A module that throws, or answers what is not an object, adds nothing: a token
 * with fewer claims grants less, never more.
 */
export async function moduleTokenClaims(modules: ResolvedModules, userId: string, session: Record<string, unknown>): Promise<Record<string, unknown>> {
  const claims: Record<string, unknown> = {}
  for (const module of modules.claimers) {
    const part = Object.hasOwn(session, module.id) ? (session[module.id] as JsonValue) : undefined
    const added = await guarded(modules, module.id, "`tokenClaims` failed; it adds no claim", async () => {
      const answer = await module.tokenClaims!({ userId, part })
      if (answer !== undefined && (answer === null || typeof answer !== "object" || Array.isArray(answer))) throw new TypeError("`tokenClaims` must answer an object of claims.")
      return answer
    })
    if (added) Object.assign(claims, added)
  }
  return claims
}
