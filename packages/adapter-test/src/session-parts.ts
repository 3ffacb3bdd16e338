/**
 * A plugin's part of a database session that it sets itself (`keepsSessionPart`), on a real
 * adapter through `Auth()`: set from its endpoint, read back, kept per session, and gone with the
 * session at sign-out. The rows are the core's model `sessionPart`, which `runStoreTests` has the
 * adapter make with the suite's models.
 *
 * @module
 */
import { Auth, type AuthConfig, type SesameModule } from "@sesame/core"
import { sessionPartModel, type Adapter, type Store } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import { describe, expect, it } from "vitest"
import { CookieJar } from "./browser.js"

const origin = "http://localhost:3000"

/** Registers the tests, for `runStoreTests`. */
export function sessionPartTests(adapter: Adapter, store: () => Store): void {
  describe("a plugin's kept part of a database session", () => {
    const email = `parts-${crypto.randomUUID().slice(0, 8)}@example.com`
    const plugin: SesameModule = {
      id: "workspace",
      keepsSessionPart: true,
      session: ({ previous }) => previous,
      routes: {
        "POST workspace/active": { run: async (request) => ({ body: { set: await request.setSessionPart({ id: String(request.body.id) }) } }) },
      },
    }
    const config: AuthConfig = {
      secret: "session-parts-suite-secret-0123456789abcdef",
      trustHost: true,
      adapter,
      session: { strategy: "database" },
      providers: [Credentials({ credentials: { email: {} }, createUser: true, authorize: () => ({ email, name: "Parts" }) })],
      plugins: [plugin],
    }
    const send = async (jar: CookieJar, path: string, form?: Record<string, string>) => {
      const headers: Record<string, string> = { cookie: jar.header() }
      if (form) headers["content-type"] = "application/x-www-form-urlencoded"
      if (form) headers.origin = origin
      const response = await Auth(new Request(`${origin}/auth/${path}`, { method: form ? "POST" : "GET", headers, ...(form ? { body: new URLSearchParams(form) } : {}) }), config)
      jar.apply(response)
      return response
    }
    const post = async (jar: CookieJar, path: string, form: Record<string, string> = {}) => {
      const { csrfToken } = (await (await send(jar, "csrf")).json()) as { csrfToken: string }
      return send(jar, path, { csrfToken, ...form })
    }
    const signIn = async () => {
      const jar = new CookieJar()
      expect((await post(jar, "callback/credentials", { email })).status).toBe(302)
      return jar
    }
    const session = async (jar: CookieJar) => (await (await send(jar, "session")).json()) as Record<string, unknown> | null
    const rowsOf = () => store().count(sessionPartModel)

    it("is set from the plugin's endpoint, kept for that session only, and read back", async () => {
      const laptop = await signIn()
      const phone = await signIn()
      expect((await post(laptop, "workspace/active", { id: "w-1" })).status).toBe(200)
      expect((await post(phone, "workspace/active", { id: "w-2" })).status).toBe(200)
      expect(await session(laptop)).toMatchObject({ user: { email }, workspace: { id: "w-1" } })
      expect(await session(phone)).toMatchObject({ workspace: { id: "w-2" } })
      expect((await post(laptop, "workspace/active", { id: "w-3" })).status).toBe(200)
      expect(await session(laptop)).toMatchObject({ workspace: { id: "w-3" } })
      expect(await session(phone)).toMatchObject({ workspace: { id: "w-2" } })
    })

    it("goes with its session at sign-out", async () => {
      const jar = await signIn()
      await post(jar, "workspace/active", { id: "w-1" })
      const before = await rowsOf()
      await post(jar, "signout")
      expect(await session(jar)).toBeNull()
      expect(await rowsOf()).toBe(before - 1)
    })
  })
}
