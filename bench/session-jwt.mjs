/**
 * `GET session` with a JWT session cookie, and with no cookie, in-process: @sesame/core against
 * @auth/core, with equivalent configurations (credentials provider, JWT strategy, same secret).
 * Each operation builds a Request, calls Auth() and reads the Response body, as a server would.
 *
 *   npm run bench            (builds first)
 *   node bench/session-jwt.mjs [--quick]
 */
import { Auth } from "@sesame/core"
import { encode } from "@sesame/core/jwt"
import Credentials from "@sesame/core/providers/credentials"
import { Auth as AuthJs } from "@auth/core"
import { encode as authJsEncode } from "@auth/core/jwt"
import AuthJsCredentials from "@auth/core/providers/credentials"
import { compare, options } from "./harness.mjs"

const secret = "benchmark-secret-0123456789-abcdefghijklmnop"
const claims = { name: "Alice", email: "alice@example.com", picture: null, sub: "user-1" }
const authorize = async () => null

const sesame = { secret, trustHost: true, basePath: "/auth", providers: [Credentials({ authorize })] }
const authjs = { secret, trustHost: true, basePath: "/auth", providers: [AuthJsCredentials({ authorize })] }

const sesameToken = await encode({ token: claims, secret, salt: "sesame.session-token" })
const authJsToken = await authJsEncode({ token: claims, secret, salt: "authjs.session-token" })

async function check(response, expectUser) {
  const body = await response.json()
  if (expectUser ? body?.user?.email !== "alice@example.com" : body !== null) throw new Error(`unexpected session: ${JSON.stringify(body)}`)
}

const url = "http://localhost:3000/auth/session"
await check(await Auth(new Request(url, { headers: { cookie: `sesame.session-token=${sesameToken}` } }), sesame), true)
await check(await AuthJs(new Request(url, { headers: { cookie: `authjs.session-token=${authJsToken}` } }), authjs), true)

const withCookie = await compare(
  "GET session, JWT session cookie (decrypt, callbacks, re-encrypt, Set-Cookie)",
  [
    { name: "@sesame/core", fn: async () => (await Auth(new Request(url, { headers: { cookie: `sesame.session-token=${sesameToken}` } }), sesame)).text() },
    { name: "@auth/core", fn: async () => (await AuthJs(new Request(url, { headers: { cookie: `authjs.session-token=${authJsToken}` } }), authjs)).text() },
  ],
  options(),
)
const withoutCookie = await compare(
  "GET session, no cookie",
  [
    { name: "@sesame/core", fn: async () => (await Auth(new Request(url), sesame)).text() },
    { name: "@auth/core", fn: async () => (await AuthJs(new Request(url), authjs)).text() },
  ],
  options(),
)
console.log(
  `\nsummary: with cookie ${(withCookie[1].us / withCookie[0].us).toFixed(1)}× faster, without cookie ${(withoutCookie[1].us / withoutCookie[0].us).toFixed(1)}× faster than @auth/core (node ${process.version})`,
)
