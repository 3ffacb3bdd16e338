/**
 * Test helpers: a Nitro-like h3 v1 app as the README wires it (the session middleware and the guard
 * as server middleware, in order, then a router with the auth route, API routes, form routes and
 * "pages"), on a real Node.js HTTP server (`toNodeListener`), so that every request has the socket,
 * headers and response Nitro gives: cookies, redirects, thrown h3 errors and returned `Response`s
 * are answered by h3 itself.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { AuthConfig } from "@sesame/core"
import { CredentialsSignin } from "@sesame/core/errors"
import { createApp, createRouter, defineEventHandler, readFormData, toNodeListener, type App, type EventHandler } from "h3"
import { authorize, getServerSession, requireSession, sesameHandler, sessionMiddleware, signIn, signOut, type SesameContext } from "@sesame/nuxt/server"
import { aliceCredentials, CookieJar, request, secret, users, type RequestOptions } from "../../core/test/helpers.js"

export { CookieJar, secret, users }

/** A JWT configuration with alice's credentials provider, trusting the test server's host. */
export function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, trustHost: true, providers: [aliceCredentials()], ...overrides }
}

/** A running app: its origin, a request helper applying cookies to a jar, and close. */
export interface Running {
  origin: string
  call(path: string, options?: RequestOptions): Promise<Response>
  close(): Promise<void>
}

/** Serves `app` on 127.0.0.1 at a free port. */
export async function serveApp(app: App): Promise<Running> {
  const server = createServer(toNodeListener(app))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    async call(path, options = {}) {
      const headers = options.form ? { origin, ...options.headers } : options.headers
      const response = await fetch(request(`${origin}${path}`, { ...options, headers }), { redirect: "manual" })
      options.jar?.apply(response)
      return response
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** `event.context` as the app types it. */
export const contextOf = (event: { context: object }): SesameContext => event.context as SesameContext

/** The README's app: every form of the integration, with `extra` routes. */
export function appFor(auth: AuthConfig, extra: (router: ReturnType<typeof createRouter>) => void = () => {}, middleware: readonly EventHandler[] = [sessionMiddleware(auth), authorize(auth, { protect: ["/dashboard"] })]): App {
  const app = createApp()
  for (const handler of middleware) app.use(handler)
  const router = createRouter()
  router.use("/auth/**", sesameHandler(auth))
  router.get("/", defineEventHandler((event) => ({ user: contextOf(event).session?.user ?? null })))
  router.get("/dashboard", defineEventHandler((event) => `dashboard of ${contextOf(event).session?.user?.name}`))
  router.get("/dashboard/**", defineEventHandler((event) => `below the dashboard, for ${contextOf(event).session?.user?.name}`))
  router.get("/read", defineEventHandler(async (event) => `read ${(await getServerSession(event))?.user?.name ?? "nobody"}`))
  router.get(
    "/api/me",
    defineEventHandler(async (event) => {
      const session = await requireSession(event)
      if (session instanceof Response) return session
      return { email: session.user.email }
    }),
  )
  router.post(
    "/signin",
    defineEventHandler(async (event) => {
      const form = await readFormData(event)
      try {
        return await signIn(event, "credentials", { redirectTo: "/dashboard", username: form.get("username"), password: form.get("password") })
      } catch (error) {
        if (error instanceof CredentialsSignin) return new Response("Wrong email or password", { status: 401 })
        throw error
      }
    }),
  )
  router.post("/signout", defineEventHandler((event) => signOut(event, { redirectTo: "/" })))
  extra(router)
  app.use(router)
  return app
}

/** Signs alice in through the app's own `/signin` route (server-side `signIn`). */
export async function signInAlice(app: Running, jar: CookieJar, password = users.alice.password): Promise<Response> {
  return app.call("/signin", { jar, form: { username: "alice", password } })
}

/** The names of the cookies a response sets. */
export function cookieNames(response: Response): string[] {
  return response.headers.getSetCookie().map((line) => line.slice(0, line.indexOf("=")))
}

/** The session cookie lines of `response` that set a value (not those that clear it). */
export const liveSessionCookies = (response: Response): string[] =>
  response.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token=") && !/Max-Age=0/i.test(line))
