/**
 * `signIn(context, …)` and `signOut(context, …)` from the app's own endpoints and pages: the 303
 * and its cookies, wrong credentials surfaced to the route, `redirect: false` with the cookies
 * written by the middleware, and the sign-out that no later read of the request undoes. Another
 * site's post and another origin's `redirectTo` are in attacks.test.ts.
 */
import { CredentialsSignin } from "@sesame/core/errors"
import { describe, expect, it } from "vitest"
import { getSession, signIn, signOut } from "@sesame/astro"
import { call, config, CookieJar, cookieNames, liveSessionCookies, localsOf, origin, siteFor, signInAlice, users, type Site } from "./helpers.js"

type Users = { user: { name: string } | null }
const alice = { username: "alice", password: users.alice.password }
const sameOrigin = { origin, "sec-fetch-site": "same-origin" }

/** The README's site, with a page that handles its own form's POST and the routes each case needs. */
function site(auth = config()): Site {
  const base = siteFor(auth)
  return {
    ...base,
    endpoints: {
      ...base.endpoints,
      "/logout-and-show": {
        POST: async (context) => {
          await signOut(context, { redirect: false })
          return Response.json({ header: (await getSession(context))?.user?.name ?? null, locals: localsOf(context).session })
        },
      },
      "/login-quiet": {
        POST: async (context) => {
          const url = await signIn(context, "credentials", { ...alice, redirect: false })
          return Response.json({ url, header: (await getSession(context))?.user?.name ?? null })
        },
      },
    },
    pages: {
      ...base.pages,
      // A sign-in page whose frontmatter handles its own form, as the quick start's does.
      "/signin": async (Astro) => {
        if (Astro.request.method === "POST") {
          const form = await Astro.request.formData()
          try {
            return await signIn(Astro, "credentials", { redirectTo: "/dashboard", username: form.get("username"), password: form.get("password") })
          } catch (error) {
            if (!(error instanceof CredentialsSignin)) throw error
            Astro.response.status = 401
            return "<p>Wrong email or password</p>"
          }
        }
        return "<form method=post></form>"
      },
    },
  }
}

describe("signIn(context, 'credentials', options)", () => {
  it("signs in from an endpoint: a 303 to redirectTo with the session cookie, private", async () => {
    const app = site()
    const jar = new CookieJar()
    const signedIn = await signInAlice(app, jar)
    expect(signedIn.status).toBe(303)
    expect(signedIn.headers.get("location")).toBe(`${origin}/dashboard`)
    expect(cookieNames(signedIn)).toContain("sesame.session-token")
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store")
    expect(((await (await call(app, "/", { jar })).json()) as Users).user?.name).toBe("Alice")
  })

  it("signs in from a page's frontmatter, and surfaces wrong credentials as CredentialsSignin for the page's message", async () => {
    const app = site()
    const jar = new CookieJar()
    const refused = await call(app, "/signin", { jar, form: { ...alice, password: "wrong password" } })
    expect(refused.status).toBe(401)
    expect(await refused.text()).toBe("<p>Wrong email or password</p>")
    expect(jar.get("sesame.session-token")).toBeUndefined()
    const signedIn = await call(app, "/signin", { jar, form: alice })
    expect(signedIn.status).toBe(303)
    expect(await (await call(app, "/dashboard", { jar })).text()).toBe("dashboard of Alice")
  })

  it("returns to the page the form was on when there is no redirectTo, and to / without one", async () => {
    const app: Site = { ...site(), endpoints: { ...site().endpoints, "/login-back": { POST: (context) => signIn(context, "credentials", alice) } } }
    expect((await call(app, "/login-back", { form: {}, headers: { referer: `${origin}/pricing?plan=pro` } })).headers.get("location")).toBe(`${origin}/pricing?plan=pro`)
    expect((await call(app, "/login-back", { form: {} })).headers.get("location")).toBe(`${origin}/`)
  })

  it("with redirect: false, gives the URL, and the middleware writes the cookie on the route's own response; the read still is the request's", async () => {
    const app = site()
    const jar = new CookieJar()
    const answer = await call(app, "/login-quiet", { method: "POST", jar, headers: sameOrigin })
    expect(await answer.json()).toEqual({ url: `${origin}/`, header: null })
    expect(liveSessionCookies(answer)).toHaveLength(1)
    expect(answer.headers.get("cache-control")).toBe("private, no-store")
    expect(((await (await call(app, "/", { jar })).json()) as Users).user?.name).toBe("Alice")
  })

  it("sends the browser to the sign-in page for a provider that is not configured", async () => {
    const app: Site = { ...site(), endpoints: { ...site().endpoints, "/login-nowhere": { POST: (context) => signIn(context, "nowhere", { redirectTo: "/dashboard" }) } } }
    const answer = await call(app, "/login-nowhere", { form: {} })
    expect(answer.headers.get("location")).toBe(`${origin}/auth/signin?callbackUrl=%2Fdashboard`)
  })
})

describe("signOut(context, options)", () => {
  it("signs out: a 303 to redirectTo that clears the session cookie", async () => {
    const app = site()
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const signedOut = await call(app, "/logout", { method: "POST", jar, headers: sameOrigin })
    expect(signedOut.status).toBe(303)
    expect(signedOut.headers.get("location")).toBe(`${origin}/`)
    expect(signedOut.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token="))).toEqual([expect.stringMatching(/Max-Age=0/i)])
    expect(jar.get("sesame.session-token")).toBeUndefined()
    expect(await (await call(app, "/", { jar })).json()).toEqual({ user: null })
  })

  it("after signOut, getSession and locals.session are null, and the renewed cookie of the read is not written over the cleared one", async () => {
    const app = site(config({ session: { updateAge: 0 } }))
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const answer = await call(app, "/logout-and-show", { method: "POST", jar, headers: sameOrigin })
    expect(await answer.json()).toEqual({ header: null, locals: null })
    expect(liveSessionCookies(answer)).toEqual([])
    expect(answer.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token="))).toEqual([expect.stringMatching(/Max-Age=0/i)])
    expect(jar.get("sesame.session-token")).toBeUndefined()
  })
})
