/**
 * The Express app: Sesame's endpoints under /auth, the session for every page, a guarded page and
 * a guarded JSON route, and the app's own sign-in and sign-out routes, which sign in and out on the
 * server with @sesame/express. The routes pass the errors they do not answer to `next` (never let
 * one escape an async route: on Express 4 it would end the process), and one error handler answers
 * another site's post.
 */
import express from "express"
import { BadRequest, CredentialsSignin, requireSession, SesameAuth, sessionLocals, signIn, signOut } from "@sesame/express"
import { accountPage, homePage, loginPage, refusedPage, stylesheet } from "./pages.mjs"

/** Headers for the app's own pages: no script at all, no framing, no leaking of URLs to other sites. */
function securityHeaders(_req, res, next) {
  res.set({
    "Content-Security-Policy": "default-src 'self'; script-src 'none'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
  })
  next()
}

/** The page to come back to after signing in: a value from the query or the form, else `/`. Sesame keeps it on this site. */
const callbackUrlOf = (value) => (typeof value === "string" && value ? value : "/")

export function createApp(authConfig) {
  const oidc = authConfig.providers.find((provider) => provider.id === "dev-idp")
  const app = express()
  app.disable("x-powered-by")

  // Sesame's endpoints (its built-in pages have headers of their own), then the app's pages.
  app.use("/auth", SesameAuth(authConfig))
  app.use(securityHeaders)
  app.use(sessionLocals(authConfig))
  app.get("/style.css", (_req, res) => {
    res.type("text/css").send(stylesheet)
  })

  app.get("/", (_req, res) => {
    res.send(homePage(res.locals.session))
  })

  app.get("/account", requireSession(authConfig), (_req, res) => {
    res.send(accountPage(res.locals.session))
  })

  app.get("/api/me", requireSession(authConfig), (_req, res) => {
    res.json({ user: res.locals.session.user })
  })

  app.get("/login", (req, res) => {
    const { callbackUrl, error } = req.query
    res.send(loginPage({ session: res.locals.session, callbackUrl: callbackUrlOf(callbackUrl), error: typeof error === "string" ? error : undefined, oidcName: oidc?.name }))
  })

  app.post("/login", express.urlencoded({ extended: false }), async (req, res, next) => {
    const { email, password, callbackUrl } = req.body
    try {
      // Only the fields meant for the provider, never the whole body.
      await signIn(req, res, authConfig, "credentials", { email, password, redirectTo: callbackUrlOf(callbackUrl) })
    } catch (error) {
      if (!(error instanceof CredentialsSignin)) return next(error)
      res.status(401).send(loginPage({ session: null, callbackUrl: callbackUrlOf(callbackUrl), error: "CredentialsSignin", email, oidcName: oidc?.name }))
    }
  })

  app.post("/login/dev-idp", express.urlencoded({ extended: false }), (req, res, next) => {
    signIn(req, res, authConfig, "dev-idp", { redirectTo: callbackUrlOf(req.body.callbackUrl) }).catch(next)
  })

  app.post("/logout", (req, res, next) => {
    signOut(req, res, authConfig, { redirectTo: "/" }).catch(next)
  })

  // Another site's post (BadRequest, 403) gets a page that says so; anything else goes on to
  // Express's own handler (its status, and the stack trace only outside production).
  app.use((error, _req, res, next) => {
    if (!(error instanceof BadRequest) || res.headersSent) return next(error)
    res.status(error.status).send(refusedPage(res.locals.session))
  })

  return app
}
