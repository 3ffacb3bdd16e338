/**
 * Test helpers: a real Hono app wired as the README shows (handler, session middleware, guards,
 * the app's own sign-in and sign-out routes), requests sent through `app.fetch()` (the entry point
 * every runtime calls), and the core tests' cookie jar.
 */
import type { AuthConfig } from "@sesame/core"
import { CredentialsSignin } from "@sesame/core/errors"
import { Hono } from "hono"
import { validator } from "hono/validator"
import { assertSession, getSession, requireSession, sesame, sessionMiddleware, signIn, signOut, type SesameVariables } from "@sesame/hono"
import { aliceCredentials, CookieJar, origin, request, secret, users, type RequestOptions } from "../../core/test/helpers.js"

export { CookieJar, origin, users }

/** A JWT configuration with alice's credentials provider. */
export function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, providers: [aliceCredentials()], ...overrides }
}

/** The app of the README: every form of the integration on one Hono instance. */
export function appFor(auth: AuthConfig): Hono<{ Variables: SesameVariables }> {
  const app = new Hono<{ Variables: SesameVariables }>()
  app.on(["GET", "POST"], "/auth/*", sesame(auth))
  app.use("*", sessionMiddleware(auth))
  app.use("/account/*", requireSession(auth))
  app.get("/", (c) => c.json({ user: c.get("session")?.user ?? null }))
  app.get("/raw", (c) => new Response(JSON.stringify({ user: c.get("session")?.user ?? null })))
  app.get("/account/profile", (c) => c.text(`profile of ${c.get("session")?.user?.name}`))
  app.post("/account/settings", (c) => c.text("saved"))
  app.get("/api/me", requireSession(auth), (c) => c.json(c.get("session").user))
  app.get("/read", async (c) => c.json({ user: (await getSession(c))?.user ?? null }))
  app.get("/billing", async (c) => c.text(`billing of ${(await assertSession(c)).user.email}`))
  app.post("/login", validator("form", (form) => form), async (c) => {
    try {
      return await signIn(c, "credentials", c.req.valid("form"))
    } catch (error) {
      if (error instanceof CredentialsSignin) return c.text("wrong credentials", 401)
      throw error
    }
  })
  app.post("/login-uncaught", validator("form", (form) => form), async (c) => signIn(c, "credentials", c.req.valid("form")))
  app.post("/logout", (c) => signOut(c, { redirectTo: "/" }))
  return app
}

/** What `call` sends requests to: any Hono app, whatever its bindings. */
export interface FetchApp {
  fetch(request: Request, env?: unknown): Response | Promise<Response>
}

/**
 * Sends a request to `app` as a browser on the app's origin would (a form's post carries its
 * `Origin`), with `env` as the bindings, applying the answer's cookies to the jar.
 */
export async function call(app: FetchApp, path: string, options: RequestOptions = {}, env?: unknown): Promise<Response> {
  const headers = options.form ? { origin, ...options.headers } : options.headers
  const response = await app.fetch(request(path, { ...options, headers }), env)
  options.jar?.apply(response)
  return response
}

/** Signs alice in through the app's own `/login` route (server-side `signIn`). */
export async function signInAlice(app: Hono<{ Variables: SesameVariables }>, jar: CookieJar, password = users.alice.password): Promise<Response> {
  return call(app, "/login", { jar, form: { username: "alice", password, redirectTo: "/account/profile" } })
}

/** The names of the cookies a response sets. */
export function cookieNames(response: Response): string[] {
  return response.headers.getSetCookie().map((line) => line.slice(0, line.indexOf("=")))
}
