/**
 * `@sesame/plugin-audit-trail`: each user's recent sign-ins, for an account page's "recent
 * activity" and for noticing a sign-in the user did not make. A Sesame plugin, built only on the
 * public plugin API (`SesameModule`): it works with every adapter that has a generic store, and
 * needs no adapter code of its own.
 *
 * ```ts
 * import { auditTrail } from "@sesame/plugin-audit-trail"
 * const config = { adapter, providers, plugins: [auditTrail({ keepDays: 30 })] }
 * // the tables: `await migrate(db, { models: modelsOf(config) })`, or `npx sesame migrate`
 * ```
 *
 * - `GET <basePath>/audit-trail/recent`: the signed-in user's latest sign-ins, newest first
 *   (`401` when signed out).
 * - `POST <basePath>/audit-trail/clear`: forgets them (CSRF token required).
 * - Server functions: `recentSignIns({ limit })`, `lastSignInMethod()`, `clearSignIns()` (`auth.api.*`
 *   in the integrations, `callModuleApi` in the core); each acts for the request's user.
 *
 * @module
 */
import type { ModuleRequest, SesameModule, StoredRow } from "@sesame/core"
import { signInRecord, type SignInEntry } from "./model.js"

export type { SignInEntry } from "./model.js"
export { signInRecord } from "./model.js"

export interface AuditTrailOptions {
  /** How many days a sign-in is kept. Default 90. */
  keepDays?: number
  /** The most sign-ins one read returns. Default 20. */
  maxEntries?: number
}

const day = 86_400_000

function positiveInteger(option: string, value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max) {
    throw new TypeError(`auditTrail: \`${option}\` must be a whole number from 1 to ${max}; got ${JSON.stringify(value)}.`)
  }
  return value
}

const entry = (row: StoredRow): SignInEntry => ({ provider: row.provider as string, kind: row.kind as string, newUser: row.newUser as boolean, at: row.at as Date })

/**
 * The plugin's server functions, each for the request's user (null when it is not signed in). A
 * type rather than an interface: a module's `api` is a record of functions, which only an object
 * type without a declared name can be assigned to.
 */
export type AuditTrailApi = {
  recentSignIns(request: ModuleRequest, query?: { limit?: number }): Promise<SignInEntry[] | null>
  lastSignInMethod(request: ModuleRequest): Promise<string | null>
  clearSignIns(request: ModuleRequest): Promise<number | null>
}

/** The plugin, typed so that `ServerFunctionsOf<AuditTrail>` types an integration's `api`. */
export type AuditTrail = Omit<SesameModule, "api"> & { api: AuditTrailApi }

/** The plugin, with its options checked now (a mistake fails where the configuration is written). */
export function auditTrail(options: AuditTrailOptions = {}): AuditTrail {
  const keep = positiveInteger("keepDays", options.keepDays, 90, 3650) * day
  const maxEntries = positiveInteger("maxEntries", options.maxEntries, 20, 500)

  /** The request user's latest sign-ins; null when signed out. */
  async function recent(request: ModuleRequest, limit = maxEntries): Promise<SignInEntry[] | null> {
    const user = await request.user()
    if (!user?.id) return null
    const rows = await request.store!.findMany(signInRecord, {
      where: { userId: user.id },
      orderBy: [{ field: "at", direction: "desc" }],
      limit: Math.min(Math.max(1, Math.floor(limit) || 1), maxEntries),
    })
    return rows.map(entry)
  }

  async function clear(request: ModuleRequest): Promise<number | null> {
    const user = await request.user()
    if (!user?.id) return null
    return request.store!.delete(signInRecord, { userId: user.id })
  }

  return {
    id: "audit-trail",
    models: [signInRecord],
    events: {
      async signIn({ user, account, isNewUser }, { store }) {
        // A credentials sign-in with JWT sessions has a user the adapter may not know: nothing to refer to.
        if (!user.id || !account) return
        const at = new Date()
        await store!.create(signInRecord, {
          id: crypto.randomUUID(),
          userId: user.id,
          provider: account.provider,
          kind: account.type,
          newUser: !!isNewUser,
          at,
          expires: new Date(at.getTime() + keep),
        })
      },
      async createUser({ user }, { logger }) {
        logger.debug("audit-trail: new user", { id: user.id })
      },
    },
    routes: {
      "GET audit-trail/recent": {
        async run(request) {
          const limit = request.query.limit === undefined ? maxEntries : Number(request.query.limit)
          if (!Number.isInteger(limit) || limit < 1) return { status: 400, body: { error: "BadRequest", message: "`limit` must be a whole number from 1." } }
          const entries = await recent(request, limit)
          return entries ? { body: { signIns: entries } } : { status: 401, body: { error: "Unauthorized", message: "Sign in first." } }
        },
      },
      "POST audit-trail/clear": {
        async run(request) {
          const cleared = await clear(request)
          return cleared === null ? { status: 401, body: { error: "Unauthorized", message: "Sign in first." } } : { body: { cleared } }
        },
      },
    },
    api: {
      recentSignIns: (request: ModuleRequest, query?: { limit?: number }) => recent(request, query?.limit),
      lastSignInMethod: async (request: ModuleRequest) => (await recent(request, 1))?.[0]?.provider ?? null,
      clearSignIns: (request: ModuleRequest) => clear(request),
    },
  }
}
