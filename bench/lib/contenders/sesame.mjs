/**
 * Sesame's cases, from the checkout in `dir` (this repository, or another built one given with
 * `--before`): its modules are resolved through that checkout's own package exports, so the
 * `dist` of that build and the dependencies of that tree are what runs.
 */
import { createHash, randomBytes } from "node:crypto"
import { createRequire } from "node:module"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { basePath, browserCookies, callbackCookieValue, cookieHeader, csrfCookieValue, maxAge, secret, sessionClaims, updateAge, user } from "../fixture.mjs"

const sessionCookie = "sesame.session-token"

/** Whether `error` says a module or export does not exist (an older build), rather than that it broke. */
function missing(error) {
  return ["ERR_PACKAGE_PATH_NOT_EXPORTED", "MODULE_NOT_FOUND", "ERR_MODULE_NOT_FOUND"].includes(error?.code)
}

export async function loadSesame(dir) {
  const require = createRequire(join(dir, "packages", "core", "package.json"))
  const load = (specifier) => import(pathToFileURL(require.resolve(specifier)).href)
  const [{ Auth }, { encode }, { default: Credentials }, { MemoryAdapter }] = await Promise.all([
    load("@sesame/core"),
    load("@sesame/core/jwt"),
    load("@sesame/core/providers/credentials"),
    load("@sesame/core/adapters"),
  ])
  let toNodeHandler
  try {
    ;({ toNodeHandler } = await load("@sesame/core/node"))
  } catch (error) {
    if (!missing(error)) throw error
  }
  return { Auth, encode, Credentials, MemoryAdapter, toNodeHandler }
}

/**
 * @param {"jwt" | "jwt-cold" | "jwt-browser" | "jwt-revocable" | "jwt-revocable-0" | "jwt-limited" | "database" | "no-cookie"} scenario
 * @param {{ dir: string, node?: boolean }} options `node`: serve with `toNodeHandler` instead of `Auth()` behind the bridge
 */
export async function setup(scenario, { dir, node = false }) {
  const sesame = await loadSesame(dir)
  if (node && !sesame.toNodeHandler) return { unavailable: "not in this build" }
  const session = { maxAge, updateAge }
  const base = { secret, trustHost: true, basePath, providers: [sesame.Credentials({ authorize: async () => null })] }
  let config
  let cookies = []
  if (scenario === "database") {
    const adapter = sesame.MemoryAdapter()
    await adapter.createUser(user)
    const token = randomBytes(32).toString("base64url")
    // Sesame stores only the token's SHA-256; the cookie carries the token.
    await adapter.createSession({ sessionToken: createHash("sha256").update(token).digest("hex"), userId: user.id, expires: new Date(Date.now() + maxAge * 1000) })
    config = { ...base, adapter, session: { ...session, strategy: "database" } }
    cookies = [[sessionCookie, token]]
  } else {
    config = { ...base, session: { ...session, strategy: "jwt" } }
    if (scenario.startsWith("jwt-revocable")) {
      // The user had no sessions ended, the common case: the lookup finds no row.
      config = { ...base, adapter: sesame.MemoryAdapter(), session: { ...session, strategy: "jwt", revocation: { cache: scenario === "jwt-revocable-0" ? 0 : 30 } } }
    }
    if (scenario === "jwt-limited") {
      // Every request counted in the `session` family, from one client, never refused: the cost of counting.
      config = { ...config, rateLimit: { enabled: true, rules: { session: { max: 1e12, window: 60 } } } }
    }
    if (scenario === "jwt-cold") {
      // More distinct tokens than Sesame keeps, sent in turn: the oldest kept is always the next needed.
      const pool = []
      for (let i = 0; i < 2000; i++) pool.push(cookieHeader([[sessionCookie, await sesame.encode({ token: sessionClaims(), secret, salt: sessionCookie, maxAge })]]))
      let next = 0
      return { path: `${basePath}/session`, headers: { cookie: pool[0] }, nextHeaders: () => ({ cookie: pool[next++ % pool.length] }), expect: user.email, handler: (request) => sesame.Auth(request, config) }
    }
    if (scenario !== "no-cookie") {
      const token = await sesame.encode({ token: sessionClaims(), secret, salt: sessionCookie, maxAge })
      cookies = [[sessionCookie, token]]
      if (scenario === "jwt-browser") cookies = browserCookies([["sesame.csrf-token", csrfCookieValue], ["sesame.callback-url", callbackCookieValue], ...cookies])
    }
  }
  const target = { path: `${basePath}/session`, headers: { ...(cookies.length ? { cookie: cookieHeader(cookies) } : {}), ...(scenario === "jwt-limited" ? { "x-forwarded-for": "203.0.113.1" } : {}) }, expect: scenario === "no-cookie" ? null : user.email }
  if (node) return { ...target, listener: sesame.toNodeHandler(config) }
  return { ...target, handler: (request) => sesame.Auth(request, config) }
}
