/**
 * Notes: a second Sesame app whose only way to sign in is the provider app ("Sign in with
 * Company"), through Sesame's generic OpenID Connect provider: discovery from the issuer, the code
 * flow with PKCE, state and nonce, the user's name and email from the ID token. It keeps no
 * database: its sessions are encrypted cookies (JWT sessions).
 *
 * It runs on http://localhost:4200 (CLIENT_APP_PORT), the provider on 127.0.0.1: see settings.mjs.
 *
 *   node client-app.mjs        (npm start runs it with the other parts)
 */
import { createServer } from "node:http"
import { Auth } from "@sesame/core"
import { toNodeHandler } from "@sesame/core/node"
import { clientAppOrigin, clientAppPort, escapeHtml, issuer, notesClient, page, stopOnSignals } from "./settings.mjs"

/** @type {import("@sesame/core").AuthConfig} */
const config = {
  // Unset in development: Sesame keeps a development secret in node_modules/.cache/sesame, for
  // loopback hosts only. Set AUTH_SECRET in production.
  secret: process.env.AUTH_SECRET,
  providers: [
    {
      // The callback is /auth/callback/company: the redirect URI the provider has for this client.
      id: "company",
      name: "Company",
      type: "oidc",
      issuer,
      clientId: notesClient.id,
      clientSecret: notesClient.secret,
      checks: ["pkce", "state", "nonce"],
    },
  ],
}

const auth = toNodeHandler(config)

/** GETs one of Sesame's endpoints for the request's cookies: its JSON, and the cookies it sets. */
async function fromSesame(req, endpoint) {
  const response = await Auth(new Request(`${clientAppOrigin}/auth/${endpoint}`, { headers: { cookie: req.headers.cookie ?? "" } }), config)
  return { body: await response.json(), cookies: response.headers.getSetCookie() }
}

async function home(req, res) {
  // The session, and a CSRF token for the sign-in and sign-out forms (its cookie set with the page).
  const [session, csrf] = await Promise.all([fromSesame(req, "session"), fromSesame(req, "csrf")])
  const user = session.body?.user
  const token = escapeHtml(csrf.body.csrfToken)
  const body = user
    ? `<p data-testid="status">Signed in as <strong>${escapeHtml(user.name)}</strong> (${escapeHtml(user.email)}), through Company.</p>
<form method="post" action="/auth/signout">
  <input type="hidden" name="csrfToken" value="${token}">
  <input type="hidden" name="callbackUrl" value="/">
  <button class="secondary">Sign out</button>
</form>`
    : `<p data-testid="status">Not signed in.</p>
<p>Notes has no passwords of its own: you sign in with your Company account.</p>
<form method="post" action="/auth/signin/company">
  <input type="hidden" name="csrfToken" value="${token}">
  <input type="hidden" name="callbackUrl" value="/">
  <button>Sign in with Company</button>
</form>`
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "set-cookie": [...session.cookies, ...csrf.cookies] })
  res.end(page("Notes", body))
}

const server = createServer(async (req, res) => {
  try {
    // One name for the app: its redirect URI at the provider is on `localhost`.
    if (req.headers.host !== `localhost:${clientAppPort}`) {
      res.writeHead(308, { location: `${clientAppOrigin}${req.url}` }).end()
      return
    }
    const path = new URL(req.url ?? "/", clientAppOrigin).pathname
    if (path.startsWith("/auth/")) return await auth(req, res)
    if (path === "/" && req.method === "GET") return await home(req, res)
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found")
  } catch (error) {
    console.error(error)
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" })
    res.end("Internal error")
  }
})

// On 127.0.0.1, named `localhost` in the browser (which also reaches 127.0.0.1 by that name).
server.listen(clientAppPort, "127.0.0.1", () => {
  console.log(`Notes (the app that signs in through the provider): ${clientAppOrigin}`)
})
stopOnSignals(server)
