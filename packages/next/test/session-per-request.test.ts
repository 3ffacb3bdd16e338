/**
 * `auth()` in a real Next.js 16 app (test/app; see next-app.ts): however many server components
 * ask while one request renders, the session is read once (React's `cache`), and no request ever
 * gets another's session.
 *
 * The app's `session` callback counts the reads, and each session says which read made it
 * (`Alice #7`): the same number in three components is one read shared by them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { encode } from "@sesame/core/jwt"
import { appSecret, buildApp, startApp, type RunningApp } from "./next-app.js"

const sessionCookie = "sesame.session-token"

let app: RunningApp
let alice: string
let bob: string

async function cookieOf(name: string): Promise<string> {
  const token = await encode({ token: { name, email: `${name.toLowerCase()}@example.com`, sub: name.toLowerCase() }, secret: appSecret, salt: sessionCookie })
  return `${sessionCookie}=${token}`
}

beforeAll(async () => {
  buildApp()
  app = await startApp()
  ;[alice, bob] = await Promise.all([cookieOf("Alice"), cookieOf("Bob")])
}, 240_000)

afterAll(async () => {
  await app?.stop()
})

/** The read number in a view (`Alice #7` → 7). */
function readOf(view: string | undefined): number {
  const match = /#(\d+)$/.exec(view ?? "")
  if (!match) throw new Error(`no read number in ${view}`)
  return Number(match[1])
}

describe("auth() while Next.js renders a request", () => {
  it("reads the session once, however many server components ask", async () => {
    // No proxy runs for /open/…: the layout, the page and a nested component share the one read.
    const { reads, result } = await app.readsDuring(() => app.page("/open/dedupe", alice))
    expect(reads).toBe(1)
    expect(result.layout).toBe(`Alice #${await app.reads()}`)
    expect([result.page, result.nested]).toEqual([result.layout, result.layout])
  })

  it("reads it once more than the proxy does, where the proxy runs", async () => {
    const { reads, result } = await app.readsDuring(() => app.page("/guarded", alice))
    expect(reads).toBe(2)
    expect(result.layout).toBe(`Alice #${await app.reads()}`)
    expect([result.page, result.nested]).toEqual([result.layout, result.layout])
  })

  it("never shows one request's session in another's page, however many run at once", async () => {
    const visitors = [
      { cookie: alice, name: "Alice" },
      { cookie: bob, name: "Bob" },
      { cookie: undefined, name: undefined },
    ]
    const requests = Array.from({ length: 24 }, (_, i) => ({ ...visitors[i % 3]!, path: i % 2 ? "/open/many" : "/many" }))
    const pages = await Promise.all(requests.map(({ cookie, path }) => app.page(path, cookie)))
    const seen = new Set<number>()
    pages.forEach((views, i) => {
      const { name } = requests[i]!
      for (const shown of [views.layout, views.page, views.nested]) expect(shown).toMatch(name ? new RegExp(`^${name} #\\d+$`) : /^signed out$/)
      if (name) {
        // Each request's components share a read of its own.
        expect(seen.has(readOf(views.page))).toBe(false)
        seen.add(readOf(views.page))
      }
    })
    expect(seen.size).toBe(16)
  })
})
