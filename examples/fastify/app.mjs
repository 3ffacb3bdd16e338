/**
 * The Fastify app: Sesame's plugin (its endpoints under /auth), the session for every page on the
 * server (`request.session`) and on the client (`/session.js` asks `/auth/session`), a guarded page
 * and a guarded JSON route, and the app's own sign-in and sign-out routes, which sign in and out on
 * the server with @sesame/fastify. Another site's post (BadRequest, 403) gets the "Refused" page
 * from the error handler; anything else goes on to Fastify's own.
 */
import formbody from "@fastify/formbody"
import Fastify from "fastify"
import { BadRequest, CredentialsSignin, requireSession, sesame, sessionHook, signIn, signOut } from "@sesame/fastify"
import { accountPage, homePage, loginPage, mailboxPage, refusedPage, sessionScript, stylesheet } from "./pages.mjs"

/** Headers for the app's own pages: its own script only, no framing, no leaking of URLs to other sites. */
const securityHeaders = {
  "content-security-policy": "default-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none';",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
}

/** The page to come back to after signing in: a value from the query or the form, else `/`. Sesame keeps it on this site. */
const callbackUrlOf = (value) => (typeof value === "string" && value ? value : "/")

/** The app for `authConfig`; `mailbox` (the development mailbox) adds the `/dev/mailbox` page. */
export async function createApp(authConfig, { mailbox } = {}) {
  const oidc = authConfig.providers.find((provider) => provider.id === "dev-idp")
  const app = Fastify()

  // The app's own forms; Sesame's endpoints read theirs without it.
  await app.register(formbody)
  // Sesame's endpoints (its built-in pages have headers of their own).
  await app.register(sesame, { config: authConfig })
  // request.session for every route, read once per request and kept alive.
  app.addHook("onRequest", sessionHook(authConfig))
  const html = (reply, page) => reply.headers(securityHeaders).type("text/html; charset=utf-8").send(page)

  app.get("/style.css", async (_request, reply) => reply.type("text/css").send(stylesheet))
  app.get("/session.js", async (_request, reply) => reply.type("text/javascript").send(sessionScript))

  app.get("/", async (request, reply) => html(reply, homePage(request.session)))

  app.get("/account", { preHandler: requireSession(authConfig) }, async (request, reply) => html(reply, accountPage(request.session)))

  app.get("/api/me", { preHandler: requireSession(authConfig) }, async (request) => ({ user: request.session.user }))

  app.get("/login", async (request, reply) => {
    const { callbackUrl, error } = request.query
    return html(reply, loginPage({ session: request.session, callbackUrl: callbackUrlOf(callbackUrl), error: typeof error === "string" ? error : undefined, oidcName: oidc?.name }))
  })

  app.post("/login", async (request, reply) => {
    const { provider, email, password, callbackUrl } = request.body ?? {}
    try {
      // Only the fields meant for the provider, never the whole body.
      await signIn(request, reply, authConfig, provider === "password" ? "password" : "credentials", { email, password, redirectTo: callbackUrlOf(callbackUrl) })
      return reply
    } catch (error) {
      if (!(error instanceof CredentialsSignin)) throw error
      return html(reply.code(401), loginPage({ session: null, callbackUrl: callbackUrlOf(callbackUrl), error: "CredentialsSignin", email, oidcName: oidc?.name }))
    }
  })

  app.post("/login/dev-idp", async (request, reply) => {
    await signIn(request, reply, authConfig, "dev-idp", { redirectTo: callbackUrlOf(request.body?.callbackUrl) })
    return reply
  })

  app.post("/logout", async (request, reply) => {
    await signOut(request, reply, authConfig, { redirectTo: "/" })
    return reply
  })

  if (mailbox) app.get("/dev/mailbox", async (request, reply) => html(reply, mailboxPage(request.session, mailbox.messages())))

  // Another site's post (BadRequest, 403) gets a page that says so; anything else goes on to
  // Fastify's own handler (its status, and no stack trace).
  app.setErrorHandler(async (error, request, reply) => {
    if (!(error instanceof BadRequest)) throw error
    return html(reply.code(error.status), refusedPage(request.session))
  })

  return app
}
