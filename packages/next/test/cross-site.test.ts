/**
 * The core refuses state-changing POSTs that the browser says come from another origin or site.
 * The server actions post to the core with the browser's own headers (`Origin`, `Sec-Fetch-Site`
 * included), so a server action called from the app's page must pass that check, and a request
 * whose forwarded headers name another site (a route handler reached from another site's form)
 * must not change anything.
 */
import { current, jwtConfig, newRequest } from "./next-request.js"
import { beforeEach, describe, expect, it } from "vitest"
import Sesame, { AuthError } from "@sesame/next"

const appOrigin = "https://app.example.test:8443"
const alice = { email: "alice@example.com", password: "wonderland" }
const sessionCookie = "__Secure-sesame.session-token"

function browserSays(headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) current.headers.set(name, value)
}

beforeEach(() => {
  current.jar.clear()
  newRequest()
})

describe("server actions forward the browser's headers to the core", () => {
  it("from the app's own page (Origin and Sec-Fetch-Site: same-origin): signIn, unstable_update and signOut work", async () => {
    browserSays({ origin: appOrigin, "sec-fetch-site": "same-origin" })
    const config = jwtConfig({
      callbacks: {
        jwt: ({ token, trigger, session }) => {
          const name = (session as { user?: { name?: unknown } } | undefined)?.user?.name
          return trigger === "update" && typeof name === "string" ? { ...token, name } : token
        },
      },
    })
    const { signIn, signOut, auth, unstable_update } = Sesame(config)
    expect(await signIn("credentials", { ...alice, redirect: false })).toBe(`${appOrigin}/`)
    expect(current.jar.has(sessionCookie)).toBe(true)
    expect(await unstable_update({ user: { name: "Alice L." } })).toMatchObject({ user: { name: "Alice L." } })
    expect(await signOut({ redirect: false })).toBe(`${appOrigin}/`)
    expect(current.jar.has(sessionCookie)).toBe(false)
    expect(await auth()).toBeNull()
  })

  it("with another site's Origin forwarded: signIn throws and sets no session; signOut leaves the session", async () => {
    const { signIn, signOut, auth } = Sesame(jwtConfig())
    await signIn("credentials", { ...alice, redirect: false })
    expect(current.jar.has(sessionCookie)).toBe(true)

    browserSays({ origin: "https://evil.example", "sec-fetch-site": "cross-site" })
    await expect(signOut({ redirect: false })).rejects.toBeInstanceOf(AuthError)
    expect(current.jar.has(sessionCookie)).toBe(true)
    expect(await auth()).toMatchObject({ user: { email: alice.email } })

    current.jar.clear()
    await expect(signIn("credentials", { ...alice, redirect: false })).rejects.toBeInstanceOf(AuthError)
    expect(current.jar.has(sessionCookie)).toBe(false)
  })
})
