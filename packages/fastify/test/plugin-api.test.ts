/**
 * api(request, config): a plugin's server functions from a Fastify route, for the request's user
 * (signed in or not), its errors as the core's, and the guard's `allow` on the same call.
 */
import { describe, expect, it } from "vitest"
import type { ModuleRequest, SesameModule } from "@sesame/core"
import { api, type ServerFunctionsOf } from "@sesame/fastify"
import { appWith, config, CookieJar, send, signInAlice, transports } from "./helpers.js"

const greeting = {
  id: "greeting",
  api: {
    async greet(request: ModuleRequest, punctuation: string) {
      const user = await request.user()
      return user ? `Hello, ${user.name}${punctuation}` : null
    },
  },
} satisfies SesameModule

describe.each(transports)("api(request, config), reached by $label", ({ serve }) => {
  it("runs a plugin's server function for the request's user, null when signed out; a name no plugin has is a TypeError", async () => {
    const options = config({ plugins: [greeting] })
    const app = await appWith(options)
    app.get("/greeting", async (request) => ({ greeting: await (api(request, options) as ServerFunctionsOf<typeof greeting>).greet("!") }))
    app.get("/missing", async (request) => {
      try {
        await (api(request, options) as unknown as { nothing(): Promise<unknown> }).nothing()
        return "ran"
      } catch (error) {
        return (error as Error).name
      }
    })
    const served = await serve(app)
    expect(await (await send(served, "/greeting")).json()).toEqual({ greeting: null })
    const jar = new CookieJar()
    await signInAlice(served, jar)
    expect(await (await send(served, "/greeting", { jar })).json()).toEqual({ greeting: "Hello, Alice!" })
    expect(await (await send(served, "/missing", { jar })).text()).toBe("TypeError")
  })

  it("refuses a configuration that is not an object", () => {
    expect(() => api({} as never, undefined as never)).toThrow(TypeError)
  })
})
