/**
 * A storage outage in a real Fastify app, with database sessions on an adapter that fails as a
 * driver does when its server restarts (`outage` of @sesame/testing): a signed-in visitor is never
 * taken for signed out. The guard answers the core's 503 with Retry-After (the page for a page,
 * JSON for a script), never the sign-in redirect and never a cookie; getSession throws the
 * StorageUnavailable; sessionHook hands it to Fastify's error handling, which Fastify's default
 * handler and unavailableHandler answer 503; a route outside the hook goes on; and once the storage
 * is back the same cookie is the same session.
 */
import { MemoryAdapter } from "@sesame/core/adapters"
import { checkUnavailable, outage } from "@sesame/testing"
import { describe, expect, it } from "vitest"
import type { AuthConfig } from "@sesame/core"
import { getSession, isStorageUnavailable, requireSession, sessionHook, StorageUnavailable, unavailableHandler } from "@sesame/fastify"
import { aliceCredentials, alice, appWith, config, CookieJar, send, signInAlice, transports } from "./helpers.js"

const page = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }
const json = { accept: "application/json" }

/** An app with every way of reading the session, on database sessions in a memory adapter that can go down. */
async function outageApp() {
  const storage = outage(MemoryAdapter())
  const options: AuthConfig = config({
    adapter: storage.adapter,
    session: { strategy: "database" },
    providers: [aliceCredentials({ createUser: true })],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  })
  const app = await appWith(options)
  app.get("/public", async () => "public page")
  app.get("/account", { preHandler: requireSession(options) }, async (request) => `account of ${request.session?.user?.email}`)
  // The app's own read, catching the outage itself.
  app.get("/whoami", async (request, reply) => {
    try {
      return { user: (await getSession(request, reply, options))?.user ?? null }
    } catch (error) {
      if (!isStorageUnavailable(error)) throw error
      return reply.code(503).send({ caught: error.type, instance: error instanceof StorageUnavailable, retryAfter: error.retryAfter })
    }
  })
  // sessionHook in a plugin, with Fastify's default error handler…
  await app.register(async (views) => {
    views.addHook("onRequest", sessionHook(options))
    views.get("/views/home", async (request) => `home of ${request.session?.user?.name ?? "a stranger"}`)
  })
  // …and in another, with unavailableHandler.
  await app.register(async (handled) => {
    handled.addHook("onRequest", sessionHook(options))
    handled.setErrorHandler(unavailableHandler(options))
    handled.get("/handled/home", async (request) => `home of ${request.session?.user?.name ?? "a stranger"}`)
    handled.get("/handled/fails", async () => {
      throw new Error("another failure")
    })
  })
  return { app, storage }
}

describe.each(transports)("a storage outage, reached by $label", ({ serve }) => {
  it("signed in, every way of reading the session sees Alice; during the outage none signs her out; after it, she is back", async () => {
    const { app, storage } = await outageApp()
    const served = await serve(app)
    const jar = new CookieJar()
    await signInAlice(served, jar)
    expect(await (await send(served, "/account", { jar })).text()).toBe(`account of ${alice.email}`)
    expect(await (await send(served, "/views/home", { jar })).text()).toBe(`home of ${alice.name}`)

    storage.down()
    expect(await (await send(served, "/public", { jar })).text()).toBe("public page")
    const guardPage = await send(served, "/account", { jar, headers: page })
    expect(guardPage.headers.getSetCookie()).toEqual([])
    expect((await checkUnavailable(guardPage, "page")).problems).toEqual([])
    expect((await checkUnavailable(await send(served, "/account", { jar, headers: json }), "json")).problems).toEqual([])
    const caught = await send(served, "/whoami", { jar })
    expect(caught.status).toBe(503)
    expect(await caught.json()).toEqual({ caught: "StorageUnavailable", instance: true, retryAfter: 3 })
    // Fastify's default handler: the error's status and headers.
    const viewed = await send(served, "/views/home", { jar })
    expect(viewed.status).toBe(503)
    expect(viewed.headers.get("retry-after")).toBe("3")
    expect(await viewed.text()).not.toContain("a stranger")
    // unavailableHandler: the core's page or JSON.
    expect((await checkUnavailable(await send(served, "/handled/home", { jar, headers: page }), "page")).problems).toEqual([])
    expect((await checkUnavailable(await send(served, "/handled/home", { jar, headers: json }), "json")).problems).toEqual([])

    storage.up()
    expect(await (await send(served, "/account", { jar })).text()).toBe(`account of ${alice.email}`)
    expect(await (await send(served, "/handled/home", { jar })).text()).toBe(`home of ${alice.name}`)
    // Any other error goes on, from unavailableHandler, to Fastify's own handler.
    const other = await send(served, "/handled/fails", { jar })
    expect(other.status).toBe(500)
    expect(await other.json()).toMatchObject({ statusCode: 500, message: "another failure" })
  })
})
