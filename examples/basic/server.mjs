/**
 * A minimal app on @sesame/core: credentials sign-in with a demo account, JWT sessions, the
 * built-in pages, a home page that shows the session and a page only signed-in users can see.
 *
 *   npm run build && PORT=3000 node examples/basic/server.mjs     (from the repository root)
 */
import { randomBytes, scryptSync, timingSafeEqual } from "node:crypto"
import { createServer } from "node:http"
import { Auth } from "@sesame/core"
import Credentials from "@sesame/core/providers/credentials"
import { sendWebResponse, toWebRequest } from "./node-http.mjs"

const port = Number(process.env.PORT ?? 3000)
const host = process.env.HOST ?? "127.0.0.1"
const origin = `http://localhost:${port}`

/** The demo account. Its password is stored as a salted scrypt hash, never in clear. */
const demo = { id: "demo-user", name: "Demo User", email: "demo@example.com" }
const demoPassword = "sesame-demo"
const salt = randomBytes(16)
const demoHash = scryptSync(demoPassword, salt, 64)

function checkPassword(password) {
  const hash = scryptSync(String(password ?? ""), salt, 64)
  return timingSafeEqual(hash, demoHash)
}

export const config = {
  basePath: "/auth",
  // A secret for this process when none is configured (sessions end when it restarts).
  secret: process.env.AUTH_SECRET ?? process.env.SESAME_SECRET ?? randomBytes(32).toString("base64url"),
  trustHost: true,
  providers: [
    Credentials({
      name: "email and password",
      credentials: {
        email: { label: "Email", type: "email", autocomplete: "username", placeholder: demo.email },
        password: { label: "Password", type: "password", autocomplete: "current-password" },
      },
      async authorize({ email, password }) {
        const emailMatches = String(email ?? "").trim().toLowerCase() === demo.email
        // Always hash, so a wrong email takes as long as a wrong password.
        const passwordMatches = checkPassword(password)
        return emailMatches && passwordMatches ? demo : null
      },
    }),
  ],
  callbacks: {
    session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }),
  },
}

const escape = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function layout(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:640px;margin:48px auto;padding:0 16px}pre{background:#f4f4f4;padding:12px;border-radius:6px;overflow:auto}a{margin-right:12px}</style></head>
<body><h1>${escape(title)}</h1>${body}</body></html>`
}

/** The session of a request, read through Sesame's own endpoint. */
async function sessionOf(request) {
  const response = await Auth(new Request(`${origin}/auth/session`, { headers: request.headers }), config)
  return { session: await response.json(), cookies: response.headers.getSetCookie() }
}

async function app(request) {
  const url = new URL(request.url)
  if (url.pathname.startsWith("/auth/")) return Auth(request, config)
  if (url.pathname === "/") {
    const { session, cookies } = await sessionOf(request)
    const body = session
      ? `<p>Signed in as <strong>${escape(session.user.name)}</strong> (${escape(session.user.email)}).</p>
         <pre>${escape(JSON.stringify(session, null, 2))}</pre>
         <p><a href="/protected">Protected page</a><a href="/auth/signout">Sign out</a></p>`
      : `<p>You are not signed in.</p>
         <p>Demo account: <code>${demo.email}</code> / <code>${demoPassword}</code></p>
         <p><a href="/auth/signin">Sign in</a><a href="/protected">Protected page</a></p>`
    const headers = new Headers({ "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
    for (const c of cookies) headers.append("set-cookie", c)
    return new Response(layout("Sesame example", body), { headers })
  }
  if (url.pathname === "/protected") {
    const { session } = await sessionOf(request)
    if (!session) {
      return Response.redirect(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/protected`)}`, 302)
    }
    return new Response(layout("Protected", `<p>Only signed-in users see this, ${escape(session.user.name)}.</p><p><a href="/">Home</a></p>`), {
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
    })
  }
  return new Response("Not found", { status: 404 })
}

const server = createServer(async (req, res) => {
  try {
    await sendWebResponse(res, await app(toWebRequest(req, origin)))
  } catch (error) {
    console.error(error)
    res.writeHead(500).end("Internal error")
  }
})

server.listen(port, host, () => {
  console.log(`Sesame example running at ${origin}`)
  console.log(`Demo account: ${demo.email} / ${demoPassword}`)
})

for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)))
