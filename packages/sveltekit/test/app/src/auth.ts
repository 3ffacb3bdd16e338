/**
 * The test app's configurations, picked per request by the `x-config` header through a lazy
 * configuration (`SvelteKitAuth((event) => …)`), so that one build serves every case:
 *
 * - `jwt` (the default): credentials (alice) and GitHub, JWT sessions re-issued on every read
 *   (`updateAge: 0`), no `trustHost`;
 * - `trusted`: the same with `trustHost: true`;
 * - `database`: database sessions in a memory adapter, extended on every read (`updateAge: 0`);
 * - `broken`: database sessions on an adapter whose session lookup throws;
 * - `outage`: database sessions in a memory adapter the tests take down and bring back
 *   (`probe().storage`), failing as a driver does when its server restarts;
 * - `outage-jwt`: JWT sessions with that adapter;
 * - `limited`: rate limits on, three session reads a minute per client;
 * - `custom`: endpoints under `/custom-auth`, the app's own sign-in page at `/signin`;
 * - `throws`: the configuration function itself throws.
 *
 * Every configuration has `permissions`, a plugin whose server function `hasPermission` the
 * guards' `allow` asks (lib/permissions.ts): Alice holds `project:read`, nothing else.
 */
import type { ModuleRequest, SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import GitHub from "@sesame/core/providers/github"
import { SvelteKitAuth, type SvelteKitAuthConfig } from "@sesame/sveltekit"
import { outage } from "../../../../testing/src/outage.js"
import { probe } from "./lib/probe.js"

export const alice = { id: "1", name: "Alice", email: "alice@example.com", username: "alice", password: "correct horse" }

/** A plugin with one server function: whether the request's user holds a permission. */
export const permissions = {
  id: "permissions",
  api: {
    async hasPermission(request: ModuleRequest, permission: string) {
      const user = await request.user()
      return user?.email === alice.email && permission === "project:read"
    },
  },
} as const satisfies SesameModule

const base: SvelteKitAuthConfig = {
  secret: "sveltekit-test-secret-0123456789-abcdefghijklmnop",
  plugins: [permissions],
  session: { updateAge: 0 },
  logger: { error: (error) => void probe().errors.push(error.message) },
  callbacks: {
    session({ session }) {
      probe().sessionReads++
      return session
    },
  },
  providers: [
    Credentials({
      createUser: true,
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: ({ username, password }) =>
        username === alice.username && password === alice.password ? { id: alice.id, name: alice.name, email: alice.email } : null,
    }),
    GitHub({ clientId: "kit-test-client", clientSecret: "kit-test-client-secret" }),
  ],
}

const brokenAdapter = {
  ...MemoryAdapter(),
  getSessionAndUser(): never {
    throw new Error("the session store is unreachable")
  },
}

const storage = (probe().storage = outage(MemoryAdapter()))
const outageLogger: SvelteKitAuthConfig["logger"] = { ...base.logger, warn: (code) => void probe().warnings.push(code) }

const configs: Record<string, SvelteKitAuthConfig> = {
  jwt: base,
  trusted: { ...base, trustHost: true },
  database: { ...base, adapter: MemoryAdapter(), session: { strategy: "database", updateAge: 0 } },
  broken: { ...base, adapter: brokenAdapter, session: { strategy: "database" } },
  outage: { ...base, adapter: storage.adapter, session: { strategy: "database", updateAge: 0 }, logger: outageLogger },
  "outage-jwt": { ...base, adapter: storage.adapter, session: { strategy: "jwt" }, logger: outageLogger },
  custom: { ...base, basePath: "/custom-auth", pages: { signIn: "/signin" } },
  limited: { ...base, rateLimit: { enabled: true, rules: { session: { max: 3, window: 60 } } } },
}

export const { handle, signIn, signOut, api } = SvelteKitAuth((event) => {
  const name = event.request.headers.get("x-config") ?? "jwt"
  if (name === "throws") throw new Error("the configuration store is down")
  const config = configs[name]
  if (!config) throw new Error(`no test configuration named ${name}`)
  return config
})
