/**
 * An attacker's review of `@sesame/astro`: each attack beside the legitimate flow it must not
 * break, through the package's public API with Astro's real `createContext` / `sequence`.
 *
 * Astro 7 routes a request by its pathname percent-decoded until it stops changing, with duplicate
 * slashes collapsed (`validateAndDecodePathname`, `collapseDuplicateSlashes` in Astro's
 * `FetchState`), and shows the app that normalized URL as `context.url`: `astroPath` below is
 * that rule, so the paths that Astro renders as the protected page are the ones attacked.
 */
import { describe, expect, it } from "vitest"
import { authorize, getSession, sessionMiddleware, signOut } from "@sesame/astro"
import { call, config, contextFor, CookieJar, liveSessionCookies, localsOf, origin, siteFor, signInAlice, type Site } from "./helpers.js"
import { request } from "../../core/test/helpers.js"

/** The path Astro 7 routes `pathname` to (see the module's comment). */
function astroPath(pathname: string): string {
  let path = decodeURI(pathname)
  for (let next = decodeURI(path); next !== path; next = decodeURI(path)) path = next
  return path.replace(/\/{2,}/g, "/")
}

/** Whether `authorize` lets a signed-out request for `url` through to the page. */
async function reachesPage(guard: ReturnType<typeof authorize>, url: string, normalized = false): Promise<boolean> {
  const context = contextFor(new Request(url), {})
  // A real Astro app's `context.url` is the normalized one; `createContext` leaves it raw.
  if (normalized) Object.defineProperty(context, "url", { value: new URL(astroPath(new URL(url).pathname), url) })
  let rendered = false
  await guard(context, async () => {
    rendered = true
    return new Response("dashboard")
  })
  return rendered
}

describe("authorize: a protected path spelled as Astro still routes it", () => {
  const auth = config()
  const guard = authorize(auth, { protect: ["/dashboard"] })
  const attacks = ["/%2564ashboard", "/%25252564ashboard/keys", "//dashboard", "//dashboard//keys", "///dashboard"]

  it("fails: double-encoded and double-slashed paths Astro renders as /dashboard are guarded", async () => {
    for (const path of attacks) {
      expect(astroPath(new URL(`${origin}${path}`).pathname).startsWith("/dashboard"), path).toBe(true)
      expect(await reachesPage(guard, `${origin}${path}`), path).toBe(false)
      expect(await reachesPage(guard, `${origin}${path}`, true), path).toBe(false)
    }
    // The legitimate flow: other pages, lookalikes, and the auth endpoint go on.
    for (const path of ["/", "/dashboards", "/about", "/%2564ashboards", "//auth/signin", "/auth/%2564ashboard"]) {
      expect(await reachesPage(guard, `${origin}${path}`), path).toBe(true)
    }
  })

  it("fails: the signed-in user still reaches /dashboard through the full middleware", async () => {
    const site = siteFor(auth)
    const jar = new CookieJar()
    await signInAlice(site, jar)
    expect(await (await call(site, "/dashboard", { jar })).text()).toBe("dashboard of Alice")
    expect((await call(site, "/dashboard")).status).toBe(303)
  })

  it("fails: a path Astro cannot decode is protected, never let through", async () => {
    expect(await reachesPage(guard, `${origin}/%E0%A4%A`)).toBe(false)
    expect(await reachesPage(guard, `${origin}/dash%E0%A4board`)).toBe(false)
  })

  it("fails: a predicate over the path sees the path Astro routes", async () => {
    const byPredicate = authorize(auth, { protect: (path) => path.startsWith("/admin") })
    expect(await reachesPage(byPredicate, `${origin}/%2561dmin`)).toBe(false)
    expect(await reachesPage(byPredicate, `${origin}//admin/users`)).toBe(false)
    expect(await reachesPage(byPredicate, `${origin}/public`)).toBe(true)
  })

  it("fails: a predicate of the exact path is asked about it without the trailing slash Astro ignores", async () => {
    const exact = authorize(auth, { protect: (path) => path === "/settings" })
    expect(await reachesPage(exact, `${origin}/settings/`)).toBe(false)
    expect(await reachesPage(exact, `${origin}/settings//`)).toBe(false)
    expect(await reachesPage(exact, `${origin}/settings-public`)).toBe(true)
  })
})

describe("signOut with redirect: false in a page without sessionMiddleware", () => {
  // A page that read the session with the configuration, then signs out and renders.
  const auth = config({ session: { updateAge: 0 } })
  const site: Site = {
    ...siteFor(auth),
    onRequest: undefined,
    pages: {
      "/bye": async (Astro) => {
        const before = await getSession(Astro, auth)
        await signOut(Astro, { redirect: false })
        return `bye ${before?.user?.name ?? "nobody"}, now ${(await getSession(Astro))?.user?.name ?? "nobody"}`
      },
    },
  }

  it("fails: the page's response clears the session cookie and carries no renewed one", async () => {
    const jar = new CookieJar()
    await signInAlice(siteFor(auth), jar)
    expect(jar.get("sesame.session-token")).toBeDefined()
    const answer = await call(site, "/bye", { jar })
    expect(await answer.text()).toBe("bye Alice, now nobody")
    expect(liveSessionCookies(answer)).toEqual([])
    expect(jar.get("sesame.session-token")).toBeUndefined()
    // And the next request is signed out.
    expect(await (await call(siteFor(auth), "/", { jar })).json()).toEqual({ user: null })
  })
})

describe("redirect: false in an endpoint without sessionMiddleware", () => {
  it("fails: it throws a TypeError before signing out, rather than drop the cleared cookie", async () => {
    const auth = config()
    const jar = new CookieJar()
    await signInAlice(siteFor(auth), jar)
    const site: Site = {
      onRequest: undefined,
      endpoints: {
        "/api/bye": {
          POST: async (context) => {
            await getSession(context, auth)
            return Response.json({ url: await signOut(context, { redirect: false }) })
          },
        },
        "/api/leave": { POST: async (context) => (await getSession(context, auth), signOut(context, { redirectTo: "/" })) },
      },
    }
    await expect(call(site, "/api/bye", { jar, form: {} })).rejects.toThrow(TypeError)
    expect(jar.get("sesame.session-token")).toBeDefined()
    // The legitimate flow: the redirect carries the cleared cookie.
    const left = await call(site, "/api/leave", { jar, form: {} })
    expect(left.status).toBe(303)
    expect(jar.get("sesame.session-token")).toBeUndefined()
  })
})

describe("per-request state on locals", () => {
  it("fails: two requests with their own locals never share a session read", async () => {
    const auth = config()
    const middleware = sessionMiddleware(auth)
    const jar = new CookieJar()
    await signInAlice(siteFor(auth), jar)
    const signedIn = contextFor(request("/", { jar }), {})
    const stranger = contextFor(request("/"), {})
    await middleware(signedIn, async () => new Response("a"))
    await middleware(stranger, async () => new Response("b"))
    expect(localsOf(signedIn).session?.user?.name).toBe("Alice")
    expect(localsOf(stranger).session).toBeNull()
  })
})
