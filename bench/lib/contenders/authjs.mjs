/**
 * @auth/core's cases, configured like Sesame's: same secret, credentials provider, lifetimes and
 * user. Its JWT cookie is made with its own `encode` (salt = its cookie name). For database
 * sessions it uses Sesame's MemoryAdapter, which satisfies Auth.js's adapter contract; Auth.js
 * stores and looks up the raw token. Auth.js refuses a credentials-only configuration with
 * database sessions, so that case has an OAuth provider instead, never called.
 */
import { randomBytes } from "node:crypto"
import { Auth } from "@auth/core"
import { encode } from "@auth/core/jwt"
import Credentials from "@auth/core/providers/credentials"
import GitHub from "@auth/core/providers/github"
import { basePath, browserCookies, callbackCookieValue, cookieHeader, csrfCookieValue, maxAge, secret, sessionClaims, updateAge, user } from "../fixture.mjs"
import { loadSesame } from "./sesame.mjs"

const sessionCookie = "authjs.session-token"

/** @param {"jwt" | "jwt-browser" | "database" | "no-cookie"} scenario */
export async function setup(scenario, { root }) {
  const session = { maxAge, updateAge }
  const base = { secret, trustHost: true, basePath }
  let config
  let cookies = []
  if (scenario === "database") {
    const adapter = (await loadSesame(root)).MemoryAdapter()
    await adapter.createUser(user)
    const token = randomBytes(32).toString("base64url")
    await adapter.createSession({ sessionToken: token, userId: user.id, expires: new Date(Date.now() + maxAge * 1000) })
    config = { ...base, adapter, providers: [GitHub({ clientId: "unused", clientSecret: "unused" })], session: { ...session, strategy: "database" } }
    cookies = [[sessionCookie, token]]
  } else {
    config = { ...base, providers: [Credentials({ authorize: async () => null })], session: { ...session, strategy: "jwt" } }
    if (scenario !== "no-cookie") {
      const token = await encode({ token: sessionClaims(), secret, salt: sessionCookie, maxAge })
      cookies = [[sessionCookie, token]]
      if (scenario === "jwt-browser") cookies = browserCookies([["authjs.csrf-token", csrfCookieValue], ["authjs.callback-url", callbackCookieValue], ...cookies])
    }
  }
  return {
    path: `${basePath}/session`,
    headers: cookies.length ? { cookie: cookieHeader(cookies) } : {},
    expect: scenario === "no-cookie" ? null : user.email,
    handler: (request) => Auth(request, config),
  }
}
