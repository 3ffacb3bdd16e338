/**
 * `api(context, config?)`: the plugins' server functions for the request a page or endpoint
 * handles: they act for the request's user (none when signed out, and none once the route signed
 * out), with the middleware's configuration or one passed; a name no plugin has is the core's
 * `TypeError`.
 */
import type { AuthConfig, ModuleRequest, SesameModule } from "@sesame/core"
import { describe, expect, it } from "vitest"
import { api, getSession, sesame, sessionMiddleware, signOut, type ServerFunctionsOf } from "@sesame/astro"
import { call, config, CookieJar, origin, signInAlice, siteFor, type Site } from "./helpers.js"

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

function site(auth: AuthConfig): Site {
  return {
    onRequest: sessionMiddleware(auth),
    endpoints: {
      ...siteFor(auth).endpoints,
      "/auth/*": sesame(auth),
      "/api/whoami": { GET: async (context) => Response.json(await (api(context) as Whoami).whoami()) },
      "/api/leave": {
        POST: async (context) => {
          await signOut(context, { redirect: false })
          return Response.json({ plugin: await (api(context) as Whoami).whoami(), session: await getSession(context) })
        },
      },
      "/api/unknown": {
        GET: async (context) => {
          try {
            return Response.json(await api(context).nothingLikeThis!())
          } catch (error) {
            return Response.json({ name: (error as Error).name, message: (error as Error).message }, { status: 500 })
          }
        },
      },
    },
    pages: { "/given": async (Astro) => `given ${await (api(Astro, auth) as Whoami).whoami()}` },
  }
}

describe("api(context)", () => {
  it("runs a plugin's server function for the request's user: null signed out, alice signed in", async () => {
    const app = site(config({ plugins: [whoami] }))
    expect(await (await call(app, "/api/whoami")).json()).toBeNull()
    const jar = new CookieJar()
    await signInAlice(app, jar)
    expect(await (await call(app, "/api/whoami", { jar })).json()).toBe("alice@example.com")
  })

  it("takes a configuration in a page without the middleware", async () => {
    const auth = config({ plugins: [whoami] })
    const jar = new CookieJar()
    await signInAlice(site(auth), jar)
    expect(await (await call({ pages: site(auth).pages }, "/given", { jar })).text()).toBe("given alice@example.com")
  })

  it("acts for nobody once the route signed out, as getSession answers null", async () => {
    const app = site(config({ plugins: [whoami] }))
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const answer = await call(app, "/api/leave", { method: "POST", jar, headers: { origin, "sec-fetch-site": "same-origin" } })
    expect(await answer.json()).toEqual({ plugin: null, session: null })
  })

  it("answers a name no plugin has with the core's TypeError", async () => {
    const answer = await call(site(config({ plugins: [whoami] })), "/api/unknown")
    expect(await answer.json()).toMatchObject({ name: "TypeError" })
  })
})
