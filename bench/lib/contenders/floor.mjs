/**
 * The floors: what a session check costs with no library at all, measured in the same run.
 *
 * In-process (each op also builds its Request and reads and checks the answer, like every case):
 * - `envelope`: a web Request in, a JSON Response out, its body read; no auth.
 * - `decrypt`: decrypting Sesame's JWT cookie with `node:crypto` (key derived once), nothing else.
 * - `decrypt+reencrypt`: the same, then a new token encrypted (what a sliding re-issue costs).
 * - `envelope+decrypt` (and `-browser`, with the browser's cookie set): the envelope, the cookie
 *   found in the header and decrypted, the answer built from its claims.
 * - `envelope+adapter-read`: the envelope and one `getSessionAndUser` of Sesame's MemoryAdapter.
 * Over HTTP:
 * - `plain`: node:http answering JSON, no web Request or Response, no auth.
 * - `bridge`: node:http → web Request → web Response → node response (bench/lib/bridge.mjs), no auth.
 */
import { createHash, randomBytes } from "node:crypto"
import { basePath, browserCookies, callbackCookieValue, cookieHeader, csrfCookieValue, maxAge, secret, sessionBody, sessionClaims, user } from "../fixture.mjs"
import { cookieValue, decrypt, encrypt, sessionKey } from "../jwe.mjs"
import { loadSesame } from "./sesame.mjs"

const sessionCookie = "sesame.session-token"
const path = `${basePath}/session`

/** @param {string} scenario one of the floors above */
export async function setup(scenario, { root }) {
  const sesame = await loadSesame(root)
  const expect = user.email
  const answer = sessionBody(new Date(Date.now() + maxAge * 1000).toISOString())
  if (scenario === "plain") {
    const json = JSON.stringify(answer)
    return { path, headers: {}, expect, listener: (req, res) => res.writeHead(200, { "content-type": "application/json" }).end(json) }
  }
  if (scenario === "envelope" || scenario === "bridge") return { path, headers: {}, expect, handler: () => Response.json(answer) }

  if (scenario === "envelope+adapter-read") {
    const adapter = sesame.MemoryAdapter()
    await adapter.createUser(user)
    const token = randomBytes(32).toString("base64url")
    const stored = createHash("sha256").update(token).digest("hex")
    await adapter.createSession({ sessionToken: stored, userId: user.id, expires: new Date(Date.now() + maxAge * 1000) })
    return {
      path,
      headers: { cookie: cookieHeader([[sessionCookie, token]]) },
      expect,
      // The token's hash is what the adapter is asked for; the floor leaves hashing out (Sesame does it).
      handler: async (request) => {
        if (!cookieValue(request.headers.get("cookie"), sessionCookie)) return Response.json(null)
        const found = await adapter.getSessionAndUser(stored)
        return Response.json({ user: { name: found.user.name, email: found.user.email, image: found.user.image }, expires: found.session.expires.toISOString() })
      },
    }
  }

  const token = await sesame.encode({ token: sessionClaims(), secret, salt: sessionCookie, maxAge })
  const key = sessionKey(secret, sessionCookie)
  if (scenario === "decrypt") {
    return { expect, op: async () => ({ status: 200, body: { user: { email: decrypt(token, key)?.email } } }) }
  }
  if (scenario === "decrypt+reencrypt") {
    const header = token.slice(0, token.indexOf("."))
    return {
      expect,
      op: async () => {
        const claims = decrypt(token, key)
        const now = Math.floor(Date.now() / 1000)
        const renewed = encrypt({ ...claims, iat: now, exp: now + maxAge, jti: crypto.randomUUID() }, key, header)
        return { status: renewed.length > 0 ? 200 : 500, body: { user: { email: claims?.email } } }
      },
    }
  }
  const cookies = scenario === "envelope+decrypt-browser" ? browserCookies([["sesame.csrf-token", csrfCookieValue], ["sesame.callback-url", callbackCookieValue], [sessionCookie, token]]) : [[sessionCookie, token]]
  return {
    path,
    headers: { cookie: cookieHeader(cookies) },
    expect,
    handler: (request) => {
      const value = cookieValue(request.headers.get("cookie"), sessionCookie)
      const claims = value ? decrypt(value, key) : null
      return Response.json(claims ? { user: { name: claims.name, email: claims.email, image: claims.picture }, expires: new Date(claims.exp * 1000).toISOString() } : null)
    },
  }
}
