/**
 * `api(args, config?)`: the plugins' server functions for the request a loader or action handles:
 * they act for the request's user (none when signed out, and none once an action signed out), with
 * the middleware's configuration or one passed; a name no plugin has is the core's `TypeError`.
 */
import type { AuthConfig, ModuleRequest, SesameModule } from "@sesame/core"
import { describe, expect, it } from "vitest"
import { api, getSession, sesame, sessionMiddleware, signIn, signOut, type ServerFunctionsOf } from "@sesame/react-router"
import { appFor, call, config, CookieJar, origin, users } from "./helpers.js"

type Args = { request: Request; context: unknown }

/** A plugin that stores nothing: who the request's user is. */
const whoami = {
  id: "whoami",
  api: {
    async whoami(request: ModuleRequest) {
      return (await request.user())?.email ?? null
    },
  },
} as const satisfies SesameModule

type Whoami = ServerFunctionsOf<typeof whoami>

function appWith(auth: AuthConfig, middleware = true) {
  return appFor(
    middleware ? { middleware: [sessionMiddleware(auth)] } : {},
    {
      "routes/auth": { path: "auth/*", module: sesame(auth) },
      "routes/login": { path: "login", module: { action: (args: Args) => signIn(args, "credentials", { username: "alice", password: users.alice.password }) } },
      "routes/whoami": { path: "api/whoami", module: { loader: async (args: Args) => Response.json(await (api(args) as Whoami).whoami()) } },
      "routes/given": { path: "api/given", module: { loader: async (args: Args) => Response.json(await (api(args, auth) as Whoami).whoami()) } },
      "routes/leave": {
        path: "api/leave",
        module: {
          action: async (args: Args) => {
            await signOut(args, { redirect: false })
            return Response.json({ plugin: await (api(args) as Whoami).whoami(), session: await getSession(args) })
          },
        },
      },
      "routes/unknown": {
        path: "api/unknown",
        module: {
          loader: async (args: Args) => {
            try {
              return Response.json(await api(args).nothingLikeThis!())
            } catch (error) {
              return Response.json({ name: (error as Error).name, message: (error as Error).message }, { status: 500 })
            }
          },
        },
      },
    },
    { middleware },
  )
}

describe("api(args)", () => {
  it("runs a plugin's server function for the request's user: null signed out, alice signed in", async () => {
    const app = appWith(config({ plugins: [whoami] }))
    expect(await (await call(app, "/api/whoami")).json()).toBeNull()
    const jar = new CookieJar()
    await call(app, "/login", { jar, form: {} })
    expect(await (await call(app, "/api/whoami", { jar })).json()).toBe("alice@example.com")
  })

  it("takes a configuration in a loader without the middleware", async () => {
    const auth = config({ plugins: [whoami] })
    const jar = new CookieJar()
    await call(appWith(auth), "/login", { jar, form: {} })
    expect(await (await call(appWith(auth, false), "/api/given", { jar })).json()).toBe("alice@example.com")
    expect((await call(appWith(auth, false), "/api/whoami", { jar })).status).toBe(500)
  })

  it("acts for nobody once an action signed out, as getSession answers null", async () => {
    const app = appWith(config({ plugins: [whoami] }))
    const jar = new CookieJar()
    await call(app, "/login", { jar, form: {} })
    const answer = await call(app, "/api/leave", { method: "POST", jar, headers: { origin, "sec-fetch-site": "same-origin" } })
    expect(await answer.json()).toEqual({ plugin: null, session: null })
  })

  it("answers a name no plugin has with the core's TypeError", async () => {
    const answer = await call(appWith(config({ plugins: [whoami] })), "/api/unknown")
    expect(await answer.json()).toMatchObject({ name: "TypeError" })
  })
})
