// The test app's configuration: the demo account through Credentials, and database sessions in a
// memory adapter that a test can take down (POST /api/test/outage), as a database that restarts.
import type { AuthConfig, ModuleRequest, SesameModule } from "@sesame/core"
import type { Adapter } from "@sesame/core/adapters"
import { MemoryAdapter } from "@sesame/core/adapters"
import { StorageUnavailable } from "@sesame/core/errors"
import Credentials from "@sesame/core/providers/credentials"

const storage = { down: false }

/** Takes the storage down or brings it back. */
export function setOutage(down: boolean): void {
  storage.down = down
}

/** The memory adapter, each of whose methods throws StorageUnavailable while the storage is down. */
function adapterThatCanFail(adapter: Adapter): Adapter {
  return new Proxy(adapter, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver)
      if (typeof value !== "function") return value
      return (...args: unknown[]) => {
        if (storage.down) return Promise.reject(new StorageUnavailable("the test storage is down"))
        return (value as (...args: unknown[]) => unknown).apply(target, args)
      }
    },
  })
}

/** A plugin that stores nothing: who the request's user is, for api(). */
export const whoami = {
  id: "whoami",
  api: {
    async whoami(request: ModuleRequest) {
      return (await request.user())?.email ?? null
    },
  },
} as const satisfies SesameModule

export const authConfig: AuthConfig = {
  plugins: [whoami],
  adapter: adapterThatCanFail(MemoryAdapter()),
  session: { strategy: "database", updateAge: 0 },
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      async authorize({ email, password }) {
        if (password !== "right password") return null
        if (email === "alice@example.com") return { id: "alice", name: "Alice", email }
        if (email === "admin@example.com") return { id: "admin", name: "Admin", email }
        return null
      },
      createUser: true,
    }),
  ],
  logger: { error: () => {}, warn: () => {}, debug: () => {} },
}
