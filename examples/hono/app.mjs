/**
 * The Hono app: Sesame's endpoints, the session on every page, a guarded page and a guarded JSON
 * route, and a sign-in page of its own whose forms post to the app's routes, which sign in and
 * out on the server. Plain ESM: it runs as it is, on Node.js through `server.mjs`.
 */
import { CredentialsSignin } from "@sesame/core/errors"
import { requireSession, sesame, sessionMiddleware, signIn, signOut } from "@sesame/hono"
import { Hono } from "hono"
import { html } from "hono/html"
import { validator } from "hono/validator"

const style = `body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#18181b}
nav{display:flex;gap:1rem;align-items:center;margin-bottom:2rem}nav form{margin-left:auto}
form.stack{display:grid;gap:.75rem;max-width:20rem}label{display:grid;gap:.25rem}
input{font:inherit;padding:.4rem .5rem;border:1px solid #a1a1aa;border-radius:6px}
button{font:inherit;padding:.45rem .9rem;border-radius:6px;border:1px solid #4f46e5;background:#4f46e5;color:#fff;cursor:pointer}
button.plain{background:#fff;color:#4f46e5}p[role=alert]{color:#b91c1c}pre{background:#f4f4f5;padding:.75rem;border-radius:6px;overflow:auto}`

/** A page: the navigation (who is signed in, and the sign-out form) above `body`. */
function page(c, title, body) {
  const user = c.get("session")?.user
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>${style}</style></head>
<body>
<nav>
  <a href="/">Home</a><a href="/account">Account</a><a href="/api/me">/api/me</a>
  ${user
    ? html`<form method="post" action="/logout"><span data-testid="nav-user">${user.name}</span> <button class="plain">Sign out</button></form>`
    : html`<a href="/login">Sign in</a>`}
</nav>
<main><h1>${title}</h1>${body}</main>
</body>
</html>`
}

/** The sign-in page: the demo account's form and, when configured, the OpenID Connect button. */
function loginPage(c, authConfig, { redirectTo, error }) {
  const hasIdp = authConfig.providers.some((provider) => provider.id === "dev-idp")
  return page(
    c,
    "Sign in",
    html`${error ? html`<p role="alert">${error}</p>` : ""}
<form class="stack" method="post" action="/login">
  <input type="hidden" name="redirectTo" value="${redirectTo}">
  <label>Email <input name="email" type="email" autocomplete="username" required></label>
  <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
  <button>Sign in with email and password</button>
</form>
${hasIdp
  ? html`<p>or</p><form method="post" action="/login/dev-idp"><input type="hidden" name="redirectTo" value="${redirectTo}"><button class="plain">Sign in with Sesame Dev IdP</button></form>`
  : ""}
<p>Demo account: <code>demo@example.com</code> / <code>sesame-demo</code></p>`,
  )
}

/** The app for `authConfig` (see `auth.mjs`). */
export function createApp(authConfig) {
  const app = new Hono()

  // Sesame's endpoints: the OAuth callback, the session and CSRF endpoints, the built-in pages.
  app.on(["GET", "POST"], "/auth/*", sesame(authConfig))
  // c.get("session") on every page, kept alive; the configuration for signIn and signOut.
  app.use("*", sessionMiddleware(authConfig))
  // Signed-out visitors are sent to the sign-in page, and back here once signed in.
  app.use("/account/*", requireSession(authConfig))

  app.get("/", (c) => {
    const session = c.get("session")
    return c.html(
      page(
        c,
        "Sesame on Hono",
        session
          ? html`<p data-testid="home-status">Signed in as <strong>${session.user?.name}</strong> (${session.user?.email}).</p><pre>${JSON.stringify(session, null, 2)}</pre>`
          : html`<p data-testid="home-status">Not signed in.</p>`,
      ),
    )
  })

  app.get("/account", (c) => {
    const { user } = c.get("session")
    return c.html(page(c, "Your account", html`<p data-testid="account-user">${user.name} &lt;${user.email}&gt;</p><p>Only signed-in visitors see this page.</p>`))
  })

  // A JSON client without a session gets 401 { "error": "Unauthorized", "message": "Sign in first." }.
  app.get("/api/me", requireSession(authConfig), (c) => c.json(c.get("session")))

  // The guard and Sesame's own pages send visitors here with ?callbackUrl=… (and ?error=… after a
  // failed OAuth sign-in).
  app.get("/login", (c) => {
    const error = c.req.query("error") ? "That sign-in did not work. Try again." : undefined
    return c.html(loginPage(c, authConfig, { redirectTo: c.req.query("callbackUrl") ?? "/", error }))
  })

  // Hono's form validator reads the posted form: a body that is not a form gives no fields (the
  // sign-in is refused), one that cannot be read is answered 400, never a 500.
  const form = validator("form", (fields) => fields)
  /** Where the form asks to go after signing in. */
  const returnTo = (c) => {
    const { redirectTo } = c.req.valid("form")
    return typeof redirectTo === "string" ? redirectTo : "/"
  }

  app.post("/login", form, async (c) => {
    try {
      return await signIn(c, "credentials", c.req.valid("form"))
    } catch (error) {
      if (!(error instanceof CredentialsSignin)) throw error
      return c.html(loginPage(c, authConfig, { redirectTo: returnTo(c), error: "Wrong email or password." }), 401)
    }
  })

  app.post("/login/dev-idp", form, (c) => signIn(c, "dev-idp", { redirectTo: returnTo(c) }))

  app.post("/logout", (c) => signOut(c, { redirectTo: "/" }))

  return app
}
