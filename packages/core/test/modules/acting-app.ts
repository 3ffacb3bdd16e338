/**
 * A bare app with an acting module, for the tests of acting sessions (`session/acting.ts`):
 * `modules/acting.test.ts` and the attacker's review (`attacks/review-acting-revocation.test.ts`).
 * The module lets whoever is signed in act as `bob` (a test stand-in for an admin's check), from
 * `POST act/start`, and stop at `POST act/stop`; `alice` and `bob` are stored users, signed in by a
 * credentials provider that trusts the posted address.
 */
import type { AuthConfig, SesameModule } from "@sesame/core"
import { MemoryAdapter, type MemoryAdapterInstance } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import { CookieJar, csrfToken, send } from "../helpers.js"

const hour = 3_600_000

export function actor(): SesameModule {
  return {
    id: "act",
    keepsSessionPart: true,
    session: ({ previous }) => previous,
    acting: (part) => {
      const { by, until } = (part ?? {}) as { by?: unknown; until?: unknown }
      return typeof by === "string" && typeof until === "number" ? { actorId: by, endsAt: until, stopPath: "act/stop" } : undefined
    },
    routes: {
      "POST act/start": {
        async run(req) {
          const me = await req.user()
          const until = Date.now() + hour
          return { body: { started: await req.actAs("bob", { by: me!.id!, until }, { endsAt: until }) } }
        },
      },
      "POST act/stop": { run: async (req) => ({ body: { restored: await req.stopActing() } }) },
    },
    api: {
      startFromServer: (req) => req.actAs("bob", { by: "x", until: Date.now() + hour }, { endsAt: Date.now() + hour }),
      endSessionsOf: (req, id: unknown) => req.users!.endSessions(id as string),
    },
  }
}

/** The app, with `strategy` sessions (JWT ones with `session.revocation`, cache 0) and `extra` over it. */
export function actingApp(strategy: "jwt" | "database", extra: Partial<AuthConfig> = {}): AuthConfig {
  const adapter = (extra.adapter as MemoryAdapterInstance | undefined) ?? MemoryAdapter()
  for (const [id, address] of [["alice", "alice@example.com"], ["bob", "bob@example.com"]]) adapter.tables.users.set(id!, { id: id!, email: address!, name: null, emailVerified: new Date() })
  return {
    secret: "acting-test-secret-0123456789abcdefghijklmno",
    trustHost: true,
    adapter,
    providers: [
      Credentials({
        credentials: { email: {} },
        authorize: async ({ email }) => (typeof email === "string" ? await adapter.getUserByEmail(email) : null),
      }),
    ],
    session: { strategy, ...(strategy === "jwt" ? { revocation: { cache: 0 } } : {}) },
    plugins: [actor()],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    ...extra,
  }
}

export async function signInAs(config: AuthConfig, address: string, jar = new CookieJar()): Promise<CookieJar> {
  await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfToken(config, jar), email: address } })
  return jar
}

/** Posts to a module endpoint as a page's script would (JSON, with the CSRF token); the JSON answer. */
export async function postJson(config: AuthConfig, jar: CookieJar, path: string): Promise<Record<string, unknown>> {
  const response = await send(config, path, { jar, json: { csrfToken: await csrfToken(config, jar) } })
  return (await response.json()) as Record<string, unknown>
}

/** The address of the session's user, or null. */
export async function who(config: AuthConfig, jar: CookieJar): Promise<string | null> {
  const body = (await (await send(config, "/auth/session", { jar })).json()) as { user?: { email?: string } } | null
  return body?.user?.email ?? null
}
