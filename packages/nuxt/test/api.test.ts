/**
 * `api(event, config?)`: the plugins' server functions for the request a route handles: they act
 * for the request's user (none when signed out, none once the route signed out), with the
 * middleware's configuration or one passed; a name no plugin has is the core's `TypeError`.
 */
import type { AuthConfig, ModuleRequest, SesameModule } from "@sesame/core"
import { createApp, createRouter, defineEventHandler } from "h3"
import { afterEach, describe, expect, it } from "vitest"
import { api, signOut, type ServerFunctionsOf } from "@sesame/nuxt/server"
import { appFor, config, CookieJar, serveApp, signInAlice, type Running } from "./helpers.js"

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

const running: Running[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.close()))
})

async function serve(auth: AuthConfig): Promise<Running> {
  const app = await serveApp(
    appFor(auth, (router) => {
      router.get("/api/whoami", defineEventHandler(async (event) => ({ user: await (api(event) as Whoami).whoami() })))
      router.post(
        "/api/leave",
        defineEventHandler(async (event) => {
          await signOut(event, { redirect: false })
          return { user: await (api(event) as Whoami).whoami() }
        }),
      )
      router.get(
        "/api/unknown",
        defineEventHandler(async (event) => {
          try {
            return await api(event).nothingLikeThis!()
          } catch (error) {
            return { name: (error as Error).name }
          }
        }),
      )
    }),
  )
  running.push(app)
  return app
}

describe("api(event)", () => {
  it("runs a plugin's server function for the request's user: null signed out, alice signed in, nobody once the route signed out", async () => {
    const app = await serve(config({ plugins: [whoami] }))
    expect(await (await app.call("/api/whoami")).json()).toEqual({ user: null })
    const jar = new CookieJar()
    await signInAlice(app, jar)
    expect(await (await app.call("/api/whoami", { jar })).json()).toEqual({ user: "alice@example.com" })
    expect(await (await app.call("/api/leave", { jar, form: {} })).json()).toEqual({ user: null })
    expect(await (await app.call("/api/unknown")).json()).toEqual({ name: "TypeError" })
  })

  it("takes a configuration in a route without the middleware", async () => {
    const auth = config({ plugins: [whoami] })
    const jar = new CookieJar()
    await signInAlice(await serve(auth), jar)
    const bare = createApp()
    const router = createRouter()
    router.get("/given", defineEventHandler(async (event) => ({ user: await (api(event, auth) as Whoami).whoami() })))
    bare.use(router)
    const app = await serveApp(bare)
    running.push(app)
    expect(await (await app.call("/given", { jar })).json()).toEqual({ user: "alice@example.com" })
  })
})
