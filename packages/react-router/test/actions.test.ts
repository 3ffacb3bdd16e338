/**
 * `signIn` and `signOut` from the app's actions, through React Router's server runtime: a
 * document's form post and a `<Form>`'s `.data` fetch, refused credentials for the route's own
 * message, `redirect: false` with the middleware writing the cookies, the sign-out's cookies as the
 * request's last word, and what needs the middleware.
 */
import { describe, expect, it } from "vitest"
import { getSession, sesame, sessionMiddleware, signIn, signOut } from "@sesame/react-router"
import { appFor, appOf, call, config, CookieJar, cookieNames, liveSessionCookies, origin, rendered, serverErrors, signInAlice, singleFetchRedirect, users } from "./helpers.js"

type Args = { request: Request; context: unknown }
const page = () => null

/** A configuration whose JWT is re-issued on every read, so that every read sets the cookie again. */
const renewing = () => config({ session: { updateAge: 0 } })

/** An app with the middleware and the given actions at `/<name>`, and a root loader reading the session. */
function withActions(auth = config(), actions: Record<string, (args: Args) => Promise<unknown>>, middleware = true) {
  const routes = Object.fromEntries(Object.entries(actions).map(([name, action]) => [`routes/${name}`, { path: name, module: { default: page, action } }]))
  return appFor(
    { ...(middleware ? { middleware: [sessionMiddleware(auth)] } : {}), loader: async (args: Args) => ({ user: (await getSession(args, auth))?.user?.name ?? null }) },
    { "routes/auth": { path: "auth/*", module: sesame(auth) }, "routes/home": { index: true, module: { default: page } }, ...routes },
    { middleware },
  )
}

describe("signIn", () => {
  it("from a document's form post: a 303 to redirectTo with the session cookie, private; the next request is Alice's", async () => {
    const app = appOf(config())
    const jar = new CookieJar()
    const answer = await signInAlice(app, jar)
    expect(answer.status).toBe(303)
    expect(answer.headers.get("location")).toBe(`${origin}/dashboard`)
    expect(answer.headers.get("cache-control")).toBe("private, no-store")
    expect(liveSessionCookies(answer)).toHaveLength(1)
    expect((await rendered(await call(app, "/", { jar }))).loaderData.root).toMatchObject({ user: { name: "Alice" } })
  })

  it("from a <Form>'s fetch (/login.data): React Router's redirect, with the session cookie on it", async () => {
    const app = appOf(config())
    const jar = new CookieJar()
    const answer = await call(app, "/login.data", { jar, form: { username: "alice", password: users.alice.password } })
    expect(await singleFetchRedirect(answer)).toMatchObject({ redirect: `${origin}/dashboard`, status: 303, reload: false })
    expect(liveSessionCookies(answer)).toHaveLength(1)
    expect(((await (await call(app, "/auth/session", { jar })).json()) as { user: { name: string } }).user.name).toBe("Alice")
  })

  it("throws CredentialsSignin for refused credentials: the action answers its own message with 401, and no session is set", async () => {
    const app = appOf(config())
    const jar = new CookieJar()
    const answer = await signInAlice(app, jar, "wrong")
    expect(answer.status).toBe(401)
    expect((await rendered(answer)).actionData).toEqual({ "routes/login": { error: "Wrong email or password." } })
    expect(liveSessionCookies(answer)).toEqual([])
    expect(await (await call(app, "/auth/session", { jar })).json()).toBeNull()
  })

  it("takes the posted FormData as it is", async () => {
    const app = withActions(config(), { login: async (args) => signIn(args, "credentials", await args.request.formData()) })
    const jar = new CookieJar()
    const answer = await call(app, "/login", { jar, form: { username: "alice", password: users.alice.password, redirectTo: "/welcome" } })
    expect(answer.headers.get("location")).toBe(`${origin}/welcome`)
    expect(liveSessionCookies(answer)).toHaveLength(1)
  })

  it("sends the browser to the sign-in page for a provider that is not configured, as a document after a <Form>'s fetch", async () => {
    const app = withActions(config(), { login: (args) => signIn(args, "nope") })
    const answer = await call(app, "/login", { form: {} })
    expect(answer.status).toBe(303)
    expect(answer.headers.get("location")).toMatch(new RegExp(`^${origin}/auth/signin`))
    const data = await call(app, "/login.data", { form: {} })
    expect(await singleFetchRedirect(data)).toMatchObject({ redirect: expect.stringMatching(new RegExp(`^${origin}/auth/signin`)), reload: true })
  })

  it("with redirect: false: the URL for the action, and the middleware writes the cookie on the action's response", async () => {
    const app = withActions(config(), {
      login: async (args) => ({ next: await signIn(args, "credentials", { username: "alice", password: users.alice.password, redirectTo: "/dashboard", redirect: false }) }),
    })
    const jar = new CookieJar()
    const answer = await call(app, "/login", { jar, form: {} })
    expect(answer.status).toBe(200)
    const { actionData, loaderData } = await rendered(answer)
    expect(actionData).toEqual({ "routes/login": { next: `${origin}/dashboard` } })
    // The loaders after the action read the request as it came: the new session is the next request's.
    expect(loaderData.root).toEqual({ user: null })
    expect(liveSessionCookies(answer)).toHaveLength(1)
    expect(answer.headers.get("cache-control")).toBe("private, no-store")
    expect((await rendered(await call(app, "/", { jar }))).loaderData.root).toEqual({ user: "Alice" })
  })

  it("without the middleware, throws the TypeError that says what to add before anything is done, a configuration read earlier or not", async () => {
    const auth = config()
    let done = false
    const app = withActions(
      auth,
      {
        login: async (args) => {
          await getSession(args, auth)
          await signIn(args, "credentials", { username: "alice", password: users.alice.password, redirect: false })
          done = true
          return null
        },
      },
      false,
    )
    const answer = await call(app, "/login", { form: {} })
    expect(answer.status).toBe(500)
    expect(done).toBe(false)
    expect(String(serverErrors.at(-1))).toMatch(/^TypeError: signIn\(args, …\) needs Sesame's configuration: add `export const middleware = \[sessionMiddleware\(authConfig\)\]`/)
    expect(cookieNames(answer)).toEqual([])
  })

  it("without the middleware nor a configuration read first, throws the TypeError that says what to add", async () => {
    const error = await signIn({ request: new Request(`${origin}/login`, { method: "POST" }), context: {} }, "credentials").catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(TypeError)
    expect(String(error)).toMatch(/sessionMiddleware\(authConfig\)/)
  })
})

describe("signOut", () => {
  it("a 303 to redirectTo that clears the session cookie; the session is gone", async () => {
    const app = appOf(config())
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const answer = await call(app, "/logout", { jar, form: {} })
    expect(answer.status).toBe(303)
    expect(answer.headers.get("location")).toBe(`${origin}/`)
    expect(cookieNames(answer)).toContain("sesame.session-token")
    expect(liveSessionCookies(answer)).toEqual([])
    expect(await (await call(app, "/auth/session", { jar })).json()).toBeNull()
  })

  it("with redirect: false: the loaders after the action see no session, and the read's renewed cookie is not written over the cleared one", async () => {
    const app = withActions(renewing(), { logout: async (args) => ({ next: await signOut(args, { redirect: false, redirectTo: "/bye" }) }) })
    const jar = new CookieJar()
    const token = ((await (await call(app, "/auth/csrf", { jar })).json()) as { csrfToken: string }).csrfToken
    await call(app, "/auth/callback/credentials", { jar, form: { csrfToken: token, username: "alice", password: users.alice.password } })
    expect((await rendered(await call(app, "/", { jar }))).loaderData.root).toEqual({ user: "Alice" })
    const answer = await call(app, "/logout", { jar, form: {} })
    const { actionData, loaderData } = await rendered(answer)
    expect(actionData).toEqual({ "routes/logout": { next: `${origin}/bye` } })
    expect(loaderData.root).toEqual({ user: null })
    expect(answer.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token="))).toHaveLength(1)
    expect(liveSessionCookies(answer)).toEqual([])
    expect(await (await call(app, "/auth/session", { jar })).json()).toBeNull()
  })

  it("from a <Form>'s fetch (/logout.data): React Router's redirect, with the cleared cookie on it", async () => {
    const app = appOf(renewing())
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const answer = await call(app, "/logout.data", { jar, form: {} })
    expect(await singleFetchRedirect(answer)).toMatchObject({ redirect: `${origin}/`, status: 303 })
    expect(cookieNames(answer)).toContain("sesame.session-token")
    expect(liveSessionCookies(answer)).toEqual([])
  })
})
