/**
 * What a module sets for one session (`ModuleRequest.setSessionPart`), kept with that session: the
 * active organization of a member of several is the example. A JWT session carries it in its
 * token, as the claim of the module's id; a database session keeps it in the model below, one row a
 * session and module, under the hash the session is stored by (never its token).
 *
 * The model is declared by the core, like a plugin's, and only when a configured module keeps
 * parts (`keepsSessionPart`): `modelsOf` then hands it to `migrate`, and a configuration without
 * such a module never queries it, so a database made before it keeps working. A row lives as long
 * as its session: it expires when the session does, is copied when the session is replaced by a
 * new one (a step-up), and goes when it is signed out.
 *
 * @module
 */
import { op, StoreConflict, type JsonValue, type ModelDeclaration, type Store } from "../store/model.js"
import type { ResolvedModules } from "./resolve.js"

/** One module's part of one database session. */
export const sessionPartModel = {
  name: "sessionPart",
  table: "sesame_session_parts",
  primaryKey: ["session", "module"],
  fields: {
    /** The hash the session is stored by (`sessionToken` of the sessions table). */
    session: { type: "string" },
    module: { type: "string" },
    value: { type: "json" },
    /** The session's expiry, moved with it: a row never outlives its session by much. */
    expires: { type: "date" },
  },
  expires: "expires",
} as const satisfies ModelDeclaration

/**
 * The core's own row among an acting session's parts (`session/acting.ts`): the hash of the
 * actor's session it was started from, kept aside meanwhile, so that ending the actor's sessions
 * ends it too. A module's id has no dot, so no module's part takes its place.
 */
export const actorSessionPart = "sesame.actor-session"

/**
 * The rows of the session stored under `hash`, by their whole primary key (the configured modules
 * that keep parts, and the core's where a module starts acting sessions), so that a store without
 * SQL (Redis) reads them by key instead of scanning.
 */
function ofSession(modules: ResolvedModules, hash: string) {
  return { session: hash, module: op.in([...modules.keeping, ...(modules.actors.length > 0 ? [actorSessionPart] : [])]) }
}

/** Whether a configuration's modules keep parts of sessions: only then is the model used. */
export function keepsParts(modules: ResolvedModules): boolean {
  return modules.keeping.size > 0
}

/** The parts kept for the database session stored under `hash`, by module id (and the core's {@link actorSessionPart}). */
export async function keptParts(modules: ResolvedModules, store: Store, hash: string): Promise<Record<string, JsonValue>> {
  if (!keepsParts(modules)) return {}
  const rows = await store.findMany(sessionPartModel, { where: ofSession(modules, hash) })
  return Object.fromEntries(rows.map((row) => [String(row.module), row.value as JsonValue]))
}

/** Sets (or, with `undefined`, removes) `module`'s part of the database session stored under `hash`, until `expires`. */
export async function keepPart(store: Store, hash: string, module: string, value: JsonValue | undefined, expires: Date): Promise<void> {
  if (value === undefined) {
    await store.delete(sessionPartModel, { session: hash, module })
    return
  }
  const key = { session: hash, module }
  if ((await store.update(sessionPartModel, key, { value, expires })) > 0) return
  // An expired row still holds the key until it is purged.
  await store.delete(sessionPartModel, key)
  try {
    await store.create(sessionPartModel, { ...key, value, expires })
  } catch (error) {
    // A concurrent request of the same session created it first: the later value wins, as an update's would.
    if (!(error instanceof StoreConflict)) throw error
    await store.update(sessionPartModel, key, { value, expires })
  }
}

/** The session stored under `hash` now lasts until `expires`: its parts too. */
export async function extendParts(modules: ResolvedModules, store: Store, hash: string, expires: Date): Promise<void> {
  if (keepsParts(modules)) await store.update(sessionPartModel, ofSession(modules, hash), { expires })
}

/** The session stored under `hash` ended: its parts go. */
export async function dropParts(modules: ResolvedModules, store: Store, hash: string): Promise<void> {
  if (keepsParts(modules)) await store.delete(sessionPartModel, ofSession(modules, hash))
}
