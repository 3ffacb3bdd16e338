/**
 * A storage outage, with database sessions on an adapter that fails as a driver does when its
 * server restarts (`outage` of @sesame/testing): a signed-in visitor is never taken for signed
 * out. `sessionMiddleware` and `authorize` answer the core's 503 (the page for a page, JSON for a
 * script or a client-side navigation's `.data` fetch) with `Retry-After` and no cookie;
 * `requireSession` throws it; `getSession` throws the `StorageUnavailable`; once the storage is
 * back, the same cookie is the same session.
 */
import type { AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { checkUnavailable, outage } from "@sesame/testing"
import { describe, expect, it } from "vitest"
import { authorize, getSession, isStorageUnavailable, requireSession, sesame, sessionMiddleware, StorageUnavailable } from "@sesame/react-router"
import { aliceCredentials } from "../../core/test/helpers.js"
import { appFor, appOf, call, config, CookieJar, rendered, signInAlice, users } from "./helpers.js"

type Args = { request: Request; context: unknown }
const page = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }
const json = { accept: "application/json" }

/** The README's app on database sessions in a memory adapter that can go down. */
function outageApp() {
  const storage = outage(MemoryAdapter())
  const auth: AuthConfig = config({
    adapter: storage.adapter,
    session: { strategy: "database" },
    providers: [aliceCredentials({ createUser: true })],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  })
  return { app: appOf(auth), auth, storage }
}

async function expectUnavailable(response: Response, kind: "page" | "json"): Promise<string> {
  const { problems, body } = await checkUnavailable(response, kind)
  expect(problems).toEqual([])
  return body
}

describe("a storage outage", () => {
  it("the flow it protects: signed in, every way of reading the session sees Alice", async () => {
    const { app } = outageApp()
    const jar = new CookieJar()
    await signInAlice(app, jar)
    expect((await rendered(await call(app, "/dashboard", { jar }))).loaderData["routes/dashboard"]).toEqual({ name: "Alice" })
    expect(await (await call(app, "/api/me", { jar })).json()).toEqual({ email: users.alice.email })
  })

  it("sessionMiddleware and authorize answer the core's 503 (a page, JSON, a .data fetch), never the redirect or 401, and set no cookie", async () => {
    const { app, storage } = outageApp()
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const cookie = jar.get("sesame.session-token")
    storage.down()
    const body = await expectUnavailable(await call(app, "/dashboard?tab=keys", { jar, headers: page }), "page")
    expect(body).toContain('href="/dashboard?tab=keys"')
    await expectUnavailable(await call(app, "/dashboard", { jar, headers: json }), "json")
    await expectUnavailable(await call(app, "/dashboard.data", { jar }), "json")
    await expectUnavailable(await call(app, "/", { jar, headers: page }), "page")
    expect(jar.get("sesame.session-token")).toBe(cookie)
    expect(storage.refused.size).toBeGreaterThan(0)
    storage.up()
    expect((await rendered(await call(app, "/dashboard", { jar }))).loaderData["routes/dashboard"]).toEqual({ name: "Alice" })
  })

  it("a visitor without a session cookie is not looked up: signed out as ever, redirected", async () => {
    const { app, storage } = outageApp()
    storage.down()
    expect((await call(app, "/dashboard")).status).toBe(303)
  })

  it("requireSession throws the 503 (a resource route answers it as it is); an outage in allow is the 503 too", async () => {
    const { auth, storage } = outageApp()
    const app = appFor(
      {},
      {
        "routes/auth": { path: "auth/*", module: sesame(auth) },
        "routes/me": { path: "api/me", module: { loader: async (args: Args) => Response.json({ email: (await requireSession(args, auth)).user.email }) } },
        "routes/admin": {
          path: "api/admin",
          module: { loader: async (args: Args) => Response.json({ admin: (await requireSession(args, auth, { allow: () => Promise.reject(new StorageUnavailable("permissions unreachable")) })).user.email }) },
        },
      },
      { middleware: false },
    )
    const jar = new CookieJar()
    await signInAlice(appOf(auth), jar)
    expect(await (await call(app, "/api/me", { jar })).json()).toEqual({ email: users.alice.email })
    await expectUnavailable(await call(app, "/api/admin", { jar, headers: json }), "json")
    storage.down()
    await expectUnavailable(await call(app, "/api/me", { jar, headers: json }), "json")
  })

  it("getSession throws the StorageUnavailable; the loader can catch it", async () => {
    const { auth, storage } = outageApp()
    const app = appFor(
      {},
      {
        "routes/caught": {
          path: "api/caught",
          module: {
            loader: async (args: Args) => {
              try {
                return Response.json({ user: (await getSession(args, auth))?.user ?? null })
              } catch (error) {
                if (!isStorageUnavailable(error)) throw error
                return Response.json({ caught: error.type, instance: error instanceof StorageUnavailable, retryAfter: error.retryAfter }, { status: 503 })
              }
            },
          },
        },
      },
      { middleware: false },
    )
    const jar = new CookieJar()
    await signInAlice(appOf(auth), jar)
    storage.down()
    const answer = await call(app, "/api/caught", { jar })
    expect(answer.status).toBe(503)
    expect(await answer.json()).toMatchObject({ caught: "StorageUnavailable", instance: true, retryAfter: expect.any(Number) })
  })

  it("a StorageUnavailable thrown by authorize's allow is the 503, not a 403 or a 500", async () => {
    const { auth } = outageApp()
    const jar = new CookieJar()
    await signInAlice(appOf(auth), jar)
    const app = appFor(
      { middleware: [sessionMiddleware(auth), authorize(auth, { protect: ["/admin"], allow: () => Promise.reject(new StorageUnavailable("permissions unreachable")) })] },
      { "routes/admin": { path: "admin", module: { default: () => null } } },
    )
    await expectUnavailable(await call(app, "/admin", { jar, headers: page }), "page")
  })
})
