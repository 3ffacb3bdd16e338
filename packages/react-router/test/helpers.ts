/**
 * Test helpers: a React Router app as the README wires it, answered by React Router's own server
 * runtime (`createRequestHandler` of `react-router`) from a server build made here: the route
 * modules are plain objects (a loader, an action, middleware, a component that is never rendered),
 * and the document entry answers the rendering context as JSON (the loaders' and actions' data and
 * errors) instead of HTML. Everything between the request and that entry (single fetch's `.data`
 * requests, middleware, thrown responses, redirects, resource routes) is React Router's.
 */
import type { AuthConfig } from "@sesame/core"
import { CredentialsSignin } from "@sesame/core/errors"
import { createRequestHandler, data, isRouteErrorResponse, RouterContextProvider, UNSAFE_decodeViaTurboStream as decodeViaTurboStream, type ServerBuild } from "react-router"
import { authorize, getSession, requireSession, sesame, sessionMiddleware, signIn, signOut } from "@sesame/react-router"
import { aliceCredentials, CookieJar, origin, request, secret, users, type RequestOptions } from "../../core/test/helpers.js"

export { CookieJar, origin, secret, users }

/** A JWT configuration with alice's credentials provider. */
export function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, providers: [aliceCredentials()], ...overrides }
}

/** A route module as the build holds it. */
export type RouteModule = Record<string, unknown>
/** A route: its path below its parent (`root` unless `parentId` says), or `index`, and its module. */
export interface RouteDef {
  path?: string
  index?: boolean
  parentId?: string
  caseSensitive?: boolean
  module: RouteModule
}

/** What React Router reported to the entry's `handleError` (a loader's or action's error), newest last. */
export const serverErrors: unknown[] = []

/** A component that is never rendered: a route with one is a page, not a resource route. */
const Page = (): null => null

/** How the app is built: React Router's future flags, its basename. */
export interface BuildOptions {
  /** `future.v8_middleware`; true unless said. */
  middleware?: boolean
  /** `future.v8_passThroughRequests`: loaders and middleware see the `.data` URL as it is. */
  passThrough?: boolean
  basename?: string
  /** What the server hands React Router for each request, as a server's `getLoadContext` would: by default a new router context (or `{}` without middleware). */
  loadContext?: () => unknown
}

/** What the document entry answers: the rendering context's data, for the tests to read. */
export interface Rendered {
  loaderData: Record<string, unknown>
  actionData: Record<string, unknown> | null
  errors: Record<string, { status?: number; data?: unknown; message?: string }> | null
}

/** A request handler over `routes` (the root's module is `root`), as `react-router-serve` would run the build. */
export function appFor(root: RouteModule, routes: Record<string, RouteDef>, options: BuildOptions = {}): (request: Request) => Promise<Response> {
  const serverRoutes: Record<string, unknown> = { root: { id: "root", path: "", module: { default: Page, ...root } } }
  const assetRoutes: Record<string, unknown> = {}
  for (const [id, route] of Object.entries({ root: { path: "", module: root } as RouteDef, ...routes })) {
    const module = id === "root" ? (serverRoutes.root as { module: RouteModule }).module : route.module
    if (id !== "root") serverRoutes[id] = { id, parentId: route.parentId ?? "root", path: route.path, index: route.index, caseSensitive: route.caseSensitive, module }
    assetRoutes[id] = {
      id,
      parentId: id === "root" ? undefined : (route.parentId ?? "root"),
      path: route.path,
      index: route.index,
      hasAction: typeof module.action === "function",
      hasLoader: typeof module.loader === "function",
      hasClientAction: false,
      hasClientLoader: false,
      hasClientMiddleware: false,
      hasErrorBoundary: typeof module.ErrorBoundary === "function",
      module: `/${id}.js`,
      clientActionModule: undefined,
      clientLoaderModule: undefined,
      clientMiddlewareModule: undefined,
      hydrateFallbackModule: undefined,
    }
  }
  const build = {
    entry: {
      module: {
        handleError: (error: unknown) => void serverErrors.push(error),
        default: (_request: Request, status: number, headers: Headers, context: { staticHandlerContext: { loaderData: unknown; actionData: unknown; errors: Record<string, unknown> | null } }) => {
          const { loaderData, actionData, errors } = context.staticHandlerContext
          const shown = errors ? Object.fromEntries(Object.entries(errors).map(([id, error]) => [id, isRouteErrorResponse(error) ? { status: error.status, data: error.data } : { message: String((error as Error).message) }])) : null
          headers.set("content-type", "text/html; charset=utf-8")
          return new Response(JSON.stringify({ loaderData, actionData, errors: shown }), { status, headers })
        },
      },
    },
    routes: serverRoutes,
    assets: { entry: { module: "/entry.client.js", imports: [] }, routes: assetRoutes, url: "/manifest.js", version: "test" },
    basename: options.basename,
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: { v8_middleware: options.middleware ?? true, v8_passThroughRequests: options.passThrough ?? false },
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
  } as unknown as ServerBuild
  const handler = createRequestHandler(build, "production")
  // What a server hands React Router per request: the router context with middleware, a load context without.
  const loadContext = options.loadContext ?? (() => (options.middleware === false ? {} : new RouterContextProvider()))
  return (incoming) => handler(incoming, loadContext() as never)
}

/**
 * Sends a request to `app` as a browser on the app's origin would (a form's post carries its
 * `Origin`), applying the answer's cookies to the jar.
 */
export async function call(app: (request: Request) => Promise<Response>, path: string, options: RequestOptions = {}): Promise<Response> {
  const headers = options.form ? { origin, ...options.headers } : options.headers
  const response = await app(request(path, { ...options, headers }))
  options.jar?.apply(response)
  return response
}

/** The rendering context a document response carries (see the entry above). */
export async function rendered(response: Response): Promise<Rendered> {
  return JSON.parse(await response.text()) as Rendered
}

/** The value of a single-fetch (`.data`) response, decoded as React Router's client does. */
export async function singleFetch(response: Response): Promise<unknown> {
  if (!response.body) return null
  const decoded = await decodeViaTurboStream(response.body, globalThis)
  await decoded.done
  return decoded.value
}

/** The redirect a single-fetch (`.data`) response carries (`{ redirect, status }`), or null. */
export async function singleFetchRedirect(response: Response): Promise<{ redirect: string; status: number } | null> {
  const value = await singleFetch(response)
  if (typeof value !== "object" || value === null) return null
  // An action's (a POST's) is the redirect itself; a loaders' (a GET's) is keyed by React Router's symbol.
  if (response.status === 202 && "redirect" in value) return value as { redirect: string; status: number }
  const symbol = Object.getOwnPropertySymbols(value).find((key) => key.description === "SingleFetchRedirect")
  return symbol ? (value as Record<symbol, { redirect: string; status: number }>)[symbol]! : null
}

/** The README's app: every form of the integration. */
export function appOf(auth: AuthConfig, options: BuildOptions = {}): (request: Request) => Promise<Response> {
  return appFor(
    {
      middleware: [sessionMiddleware(auth), authorize(auth, { protect: ["/dashboard"] })],
      loader: async (args: { request: Request; context: unknown }) => ({ user: (await getSession(args))?.user ?? null }),
    },
    {
      "routes/auth": { path: "auth/*", module: sesame(auth) },
      "routes/home": { index: true, module: { default: Page } },
      "routes/dashboard": { path: "dashboard", module: { default: Page, loader: async (args: { request: Request; context: unknown }) => ({ name: (await getSession(args))?.user?.name }) } },
      "routes/dashboard.keys": { path: "dashboard/keys", module: { default: Page, loader: () => ({ keys: [] }) } },
      "routes/account": { path: "account", module: { default: Page, ErrorBoundary: Page, loader: async (args: { request: Request; context: unknown }) => ({ email: (await requireSession(args)).user.email }) } },
      "routes/api.me": { path: "api/me", module: { loader: async (args: { request: Request; context: unknown }) => Response.json({ email: (await requireSession(args)).user.email }) } },
      "routes/login": {
        path: "login",
        module: {
          default: Page,
          action: async (args: { request: Request; context: unknown }) => {
            const form = await args.request.formData()
            try {
              return await signIn(args, "credentials", { redirectTo: "/dashboard", username: form.get("username"), password: form.get("password") })
            } catch (error) {
              if (error instanceof CredentialsSignin) return data({ error: "Wrong email or password." }, { status: 401 })
              throw error
            }
          },
        },
      },
      "routes/logout": { path: "logout", module: { default: Page, action: (args: { request: Request; context: unknown }) => signOut(args, { redirectTo: "/" }) } },
      "routes/about": { path: "about", module: { default: Page } },
    },
    options,
  )
}

/** Signs alice in through the app's own `/login` action (server-side `signIn`). */
export async function signInAlice(app: (request: Request) => Promise<Response>, jar: CookieJar, password = users.alice.password): Promise<Response> {
  return call(app, "/login", { jar, form: { username: "alice", password } })
}

/** The names of the cookies a response sets. */
export function cookieNames(response: Response): string[] {
  return response.headers.getSetCookie().map((line) => line.slice(0, line.indexOf("=")))
}

/** The session cookie lines of `response` that set a value (not those that clear it). */
export const liveSessionCookies = (response: Response): string[] =>
  response.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token=") && !/Max-Age=0/i.test(line))
