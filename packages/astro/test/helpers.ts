/**
 * Test helpers: an Astro app as the README wires it, driven by Astro's own pieces: each request
 * gets a real `APIContext` from `createContext` (astro/middleware) with a fresh `locals`, the
 * middleware runs through Astro's `sequence`, and its `next()` renders the route: an endpoint is a
 * function of that context, a page gets an `Astro`-like context on the same request and `locals`
 * (as Astro's `RenderContext` gives the middleware, the endpoint and the page one `locals`), with
 * `Astro.response` whose headers go on the page's response.
 */
import type { AuthConfig } from "@sesame/core"
import { CredentialsSignin } from "@sesame/core/errors"
import type { APIContext, MiddlewareHandler } from "astro"
import { createContext, sequence } from "astro/middleware"
import { authorize, getSession, requireSession, sesame, sessionMiddleware, signIn, signOut, type SesameLocals } from "@sesame/astro"
import { aliceCredentials, CookieJar, origin, request, secret, users, type RequestOptions } from "../../core/test/helpers.js"

export { CookieJar, origin, users }

/** A JWT configuration with alice's credentials provider. */
export function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, providers: [aliceCredentials()], ...overrides }
}

/** An endpoint's handler, as Astro calls it. */
export type Endpoint = (context: APIContext) => Response | Promise<Response>
/** `Astro` in a page: the request's context, and the response the page's headers go on. */
export type PageContext = APIContext & { response: { status: number; headers: Headers } }
/** A page's frontmatter and body: a `Response` it returns, or the HTML. */
export type Page = (Astro: PageContext) => Response | string | Promise<Response | string>

/** An app: its middleware (`onRequest`), its routes by path (`/auth/*` is a catch-all), the prerendered ones. */
export interface Site {
  onRequest?: MiddlewareHandler
  endpoints?: Record<string, Partial<Record<"GET" | "POST", Endpoint>>>
  pages?: Record<string, Page>
  prerendered?: readonly string[]
}

/** What a request is sent with besides the request: the socket's address Astro would give. */
export interface Visit {
  /** `clientAddress`; `null` for none (it throws, as on a prerendered page or without an adapter). */
  clientAddress?: string | null
  /** The request's `locals`, to look at after the request. */
  locals?: Record<string, unknown>
}

/** The route of `pathname` in `site` (as Astro's router: decoded), and whether it is an endpoint. */
function route(site: Site, pathname: string): { endpoint?: Partial<Record<"GET" | "POST", Endpoint>>; page?: Page } {
  let path: string
  try {
    path = decodeURI(pathname)
  } catch {
    return {}
  }
  for (const [pattern, endpoint] of Object.entries(site.endpoints ?? {})) {
    if (pattern === path || (pattern.endsWith("/*") && path.startsWith(pattern.slice(0, -1)))) return { endpoint }
  }
  const page = site.pages?.[path] ?? site.pages?.[path.replace(/\/+$/, "")]
  return page ? { page } : {}
}

/** A real `APIContext` for `request` with `locals`, `isPrerendered` and `clientAddress` as Astro would set them. */
export function contextFor(request: Request, locals: Record<string, unknown>, prerendered = false, clientAddress: string | null = "203.0.113.7"): APIContext {
  // `App.Locals` is global, and the repository's SvelteKit types add to it: this app's are its own.
  const context = createContext({ request, defaultLocale: "", locals: locals as never })
  context.isPrerendered = prerendered
  Object.defineProperty(context, "clientAddress", {
    get() {
      if (clientAddress === null) throw new Error("clientAddress is not available")
      return clientAddress
    },
  })
  return context
}

/** Answers `request` as Astro would: the middleware, then the route. */
export async function handle(site: Site, request: Request, visit: Visit = {}): Promise<Response> {
  const locals = visit.locals ?? {}
  const pathname = new URL(request.url).pathname
  const prerendered = (site.prerendered ?? []).includes(pathname)
  const context = contextFor(request, locals, prerendered, visit.clientAddress)
  const render = async (): Promise<Response> => {
    const { endpoint, page } = route(site, pathname)
    const method = request.method === "HEAD" ? "GET" : (request.method as "GET" | "POST")
    if (endpoint) {
      const handler = endpoint[method]
      if (!handler) return new Response(null, { status: 404 })
      const response = await handler(context)
      return request.method === "HEAD" ? new Response(null, response) : response
    }
    if (!page) return new Response("Not found", { status: 404 })
    const Astro = contextFor(request, locals, prerendered, visit.clientAddress) as PageContext
    Astro.response = { status: 200, headers: new Headers({ "content-type": "text/html" }) }
    const result = await page(Astro)
    if (result instanceof Response) return result
    return new Response(request.method === "HEAD" ? null : result, { status: Astro.response.status, headers: Astro.response.headers })
  }
  const onRequest = site.onRequest ?? ((_context, next) => next())
  return (await onRequest(context, render)) as Response
}

/**
 * Sends a request to `site` as a browser on the app's origin would (a form's post carries its
 * `Origin`), applying the answer's cookies to the jar.
 */
export async function call(site: Site, path: string, options: RequestOptions = {}, visit: Visit = {}): Promise<Response> {
  const headers = options.form ? { origin, ...options.headers } : options.headers
  const response = await handle(site, request(path, { ...options, headers }), visit)
  options.jar?.apply(response)
  return response
}

/** `Astro.locals` as the app types it. */
export const localsOf = (context: { locals: object }): SesameLocals => context.locals as SesameLocals

/** The app of the README: every form of the integration. */
export function siteFor(auth: AuthConfig): Site {
  return {
    onRequest: sequence(sessionMiddleware(auth), authorize(auth, { protect: ["/dashboard"] })),
    endpoints: {
      "/auth/*": sesame(auth),
      "/api/me": {
        GET: async (context) => {
          const session = await requireSession(context)
          if (session instanceof Response) return session
          return Response.json({ email: session.user.email })
        },
      },
      "/api/whoami": { GET: async (context) => Response.json({ user: (await getSession(context))?.user ?? null }) },
      "/login": {
        POST: async (context) => {
          const form = await context.request.formData()
          try {
            return await signIn(context, "credentials", { redirectTo: "/dashboard", username: form.get("username"), password: form.get("password") })
          } catch (error) {
            if (error instanceof CredentialsSignin) return new Response("Wrong email or password", { status: 401 })
            throw error
          }
        },
      },
      "/logout": { POST: (context) => signOut(context, { redirectTo: "/" }) },
      "/moved": { GET: () => Response.redirect(`${origin}/`, 302) },
    },
    pages: {
      "/": (Astro) => JSON.stringify({ user: localsOf(Astro).session?.user ?? null }),
      "/dashboard": (Astro) => `dashboard of ${localsOf(Astro).session?.user?.name}`,
      "/dashboard/keys": (Astro) => `keys of ${localsOf(Astro).session?.user?.name}`,
      "/account": async (Astro) => {
        const session = await requireSession(Astro)
        if (session instanceof Response) return session
        return `account of ${session.user.email}`
      },
      "/read": async (Astro) => `read ${(await getSession(Astro))?.user?.name ?? "nobody"}`,
      "/about": () => "about",
    },
    prerendered: ["/about"],
  }
}

/** Signs alice in through the app's own `/login` endpoint (server-side `signIn`). */
export async function signInAlice(site: Site, jar: CookieJar, password = users.alice.password): Promise<Response> {
  return call(site, "/login", { jar, form: { username: "alice", password } })
}

/** The names of the cookies a response sets. */
export function cookieNames(response: Response): string[] {
  return response.headers.getSetCookie().map((line) => line.slice(0, line.indexOf("=")))
}

/** The session cookie lines of `response` that set a value (not those that clear it). */
export const liveSessionCookies = (response: Response): string[] =>
  response.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token=") && !/Max-Age=0/i.test(line))
