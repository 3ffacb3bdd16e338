/**
 * better-auth's cases. Its counterpart of a JWT session is its stateless mode (no database): the
 * session lives in a `session_data` cookie encrypted as a JWE (A256CBC-HS512), read beside the
 * signed `session_token` cookie; `refreshCache.updateAge` (re-issue when less than that is left) is
 * set to `maxAge - updateAge`, so that like Sesame it re-issues at most once a day. Its database
 * case uses its own in-memory adapter, without cookie cache. Cookies come from signing up once
 * through its API at setup (`signUpEmail`, its credentials flow), as a browser would get them.
 */
import { betterAuth } from "better-auth"
import { memoryAdapter } from "better-auth/adapters/memory"
import { basePath, browserCookies, cookieHeader, maxAge, origin, password, secret, updateAge, user } from "../fixture.mjs"

/** @param {"jwt" | "jwt-browser" | "database" | "no-cookie"} scenario */
export async function setup(scenario) {
  const database = scenario === "database"
  const auth = betterAuth({
    secret,
    baseURL: origin,
    basePath,
    telemetry: { enabled: false },
    // Sesame and Auth.js do not limit session reads either (better-auth only limits in production).
    rateLimit: { enabled: false },
    emailAndPassword: { enabled: true },
    ...(database ? { database: memoryAdapter({ user: [], session: [], account: [], verification: [] }) } : {}),
    session: {
      expiresIn: maxAge,
      updateAge,
      ...(database ? {} : { cookieCache: { enabled: true, strategy: "jwe", maxAge, refreshCache: { updateAge: maxAge - updateAge } } }),
    },
  })
  const signedUp = await auth.api.signUpEmail({ body: { email: user.email, password, name: user.name }, returnHeaders: true })
  let cookies = signedUp.headers.getSetCookie().map((line) => line.split(";")[0].split(/=(.*)/s).slice(0, 2))
  const expected = database ? ["better-auth.session_token"] : ["better-auth.session_token", "better-auth.session_data"]
  if (cookies.map(([name]) => name).join() !== expected.join()) throw new Error(`better-auth's sign-up set ${cookies.map(([name]) => name).join(", ")}, not ${expected.join(", ")}`)
  if (scenario === "no-cookie") cookies = []
  // better-auth keeps no CSRF or callback-URL cookie: the browser set is the third-party cookies.
  if (scenario === "jwt-browser") cookies = browserCookies(cookies)
  return {
    path: `${basePath}/get-session`,
    headers: cookies.length ? { cookie: cookieHeader(cookies) } : {},
    expect: scenario === "no-cookie" ? null : user.email,
    handler: (request) => auth.handler(request),
  }
}
