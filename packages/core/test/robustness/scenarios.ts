/**
 * What the fuzzer does, one scenario at a time. Most scenarios are a real flow with a broken
 * piece: a real CSRF cookie with a wrong token, a real state cookie with a forged state, a real
 * challenge cookie with a garbage passkey response, an email confirmation with a junk token. Now
 * and then the flow is left whole (a real code from the IdP, a real passkey signature, a real
 * email link), so that the paths past every check are fuzzed too, with hostile headers around
 * them. Each request a scenario sends counts toward the run and is checked (see `properties.ts`).
 *
 * The scenarios of one provider kind have their own file (`oidc.ts`, `email.ts`, `passkey.ts`);
 * here are the ones that cut across kinds, and the list with how often each runs.
 */
import { csrfCookie, form, fromSite, hostile, json, path, setCookies, type Scenario } from "./fuzz.js"
import { emailLink, emailSignIn } from "./email.js"
import { draft, hostileHeaders, randomBody, randomFields, randomPath, randomQuery } from "./generators.js"
import { fullOidc, oidcCallback, oidcSignIn } from "./oidc.js"
import { passkey } from "./passkey.js"
import { chance, garbage, headerText, int, mutate, pick, tokenLike, type Rng } from "./random.js"
import { ids, type Target } from "./targets.js"

/** A CSRF token that is wrong in one of many ways, or (sometimes) right. */
function csrfVariant(rng: Rng, t: Target): { cookie: string[]; token: string | undefined } {
  const csrf = t.material.csrf!
  const real = `${csrf.name}=${csrf.value}`
  const [tokenPart, macPart] = decodeURIComponent(csrf.value).split("|")
  switch (int(rng, 10)) {
    case 0:
      return { cookie: [real], token: mutate(rng, csrf.token) }
    case 1:
      return { cookie: [real], token: undefined }
    case 2:
      return { cookie: [`${csrf.name}=${mutate(rng, csrf.value)}`], token: csrf.token }
    case 3:
      return { cookie: [`${csrf.name}=${tokenLike(rng, 64)}%7C${macPart}`, real], token: csrf.token }
    case 4:
      return { cookie: [real], token: pick(rng, [macPart!, decodeURIComponent(csrf.value), csrf.token.toUpperCase(), "", ` ${csrf.token}`]) }
    case 5:
      // The cookie under the name of the other scheme (plain vs `__Host-`), with its token.
      return { cookie: [`${csrf.name === "sesame.csrf-token" ? "__Host-" : ""}sesame.csrf-token=${csrf.value}`], token: tokenPart }
    case 6:
      return { cookie: [], token: csrf.token }
    case 7:
      return { cookie: [real, `${csrf.name}=${headerText(rng, 20).replace(/;/g, "")}`], token: chance(rng, 0.5) ? csrf.token : "" }
    default:
      return { cookie: [real], token: csrf.token }
  }
}

/** Anything: random path, method, query, body, headers and cookies. */
const random: Scenario = async (f) => {
  const { rng, target: t } = f
  const method = chance(rng, 0.92) ? pick(rng, ["GET", "POST", "HEAD"]) : pick(rng, ["PUT", "DELETE", "PATCH", "OPTIONS", "PROPFIND", "get", "post"])
  const d = draft(method, randomPath(rng, t.basePath))
  randomQuery(rng, d)
  const fields = randomFields(rng)
  if (t.material.csrf && chance(rng, 0.3)) {
    d.cookies.push(csrfCookie(t))
    if (chance(rng, 0.7)) fields.csrfToken = t.material.csrf.token
  }
  randomBody(rng, d, fields)
  await f.send(hostile(f, d))
}

/** A POST to a CSRF-protected endpoint with the real CSRF cookie and a wrong token (or a right one). */
const csrf: Scenario = async (f) => {
  const { rng, target: t } = f
  const route = pick(rng, [
    `signin/${ids.oidc}`,
    `signin/${ids.email}`,
    `signin/${ids.credentials}`,
    `signin/${ids.passkey}`,
    "signin",
    "signout",
    "session",
    `callback/${ids.credentials}`,
    `callback/${ids.email}`,
  ])
  const d = draft("POST", path(t, route))
  const variant = csrfVariant(rng, t)
  d.cookies.push(...variant.cookie)
  const fields = randomFields(rng)
  if (variant.token === undefined) delete fields.csrfToken
  else fields.csrfToken = variant.token
  if (route.endsWith(ids.email)) fields.email = pick(rng, ["alice@example.com", `${tokenLike(rng, 8)}@example.com`, fields.email ?? "x@y"])
  if (chance(rng, 0.8)) form(d, fields)
  else if (chance(rng, 0.5)) json(d, fields)
  else randomBody(rng, d, fields)
  if (chance(rng, 0.05)) d.query.push(["csrfToken", t.material.csrf!.token])
  await f.send(hostile(f, d))
}

/** The credentials callback: real CSRF, random or right credentials, hostile callback URLs. */
const credentials: Scenario = async (f) => {
  const { rng, target: t } = f
  const d = draft("POST", path(t, `callback/${ids.credentials}`))
  d.cookies.push(csrfCookie(t))
  const fields = randomFields(rng)
  fields.csrfToken = t.material.csrf!.token
  if (chance(rng, 0.4)) Object.assign(fields, { username: "alice", password: chance(rng, 0.7) ? "correct horse" : mutate(rng, "correct horse") })
  await f.send(hostile(f, form(d, fields)))
}

/** A signed-in browser (a real session cookie) doing anything, with junk around it. */
const signedIn: Scenario = async (f) => {
  const { rng, target: t } = f
  const real = pick(rng, t.material.sessions)
  const route = pick(rng, ["session", "session", "signout", "signin", "providers", "csrf", `webauthn-options/${ids.passkey}`, `signin/${ids.oidc}`, "error", "verify-request"])
  const method = route === "session" || route === "signout" ? pick(rng, ["GET", "POST"]) : chance(rng, 0.8) ? "GET" : "POST"
  let session = `${real.name}=${real.value}`
  if (method === "POST" && route === "signout") {
    // Signing out ends the shared database session; a fresh one is made for it.
    const signIn = draft("POST", path(t, `callback/${ids.credentials}`))
    signIn.cookies.push(csrfCookie(t))
    const signedInAgain = await f.send(fromSite(form(signIn, { csrfToken: t.material.csrf!.token, username: "alice", password: "correct horse" })))
    session = (signedInAgain && setCookies(signedInAgain).find((c) => c.startsWith(`${t.cookies.session}=`))) ?? session
  }
  const d = draft(method, path(t, route))
  d.cookies.push(session, csrfCookie(t))
  if (method === "POST") {
    const fields = randomFields(rng)
    fields.csrfToken = chance(rng, 0.7) ? t.material.csrf!.token : mutate(rng, t.material.csrf!.token)
    if (route === "session" && chance(rng, 0.5)) {
      json(d, { csrfToken: fields.csrfToken, data: pick(rng, [{ name: garbage(rng, 20) }, null, "x", [1, 2], { user: { id: "2", email: "evil@example.com" } }, { ["__proto__"]: { admin: true } }]) })
    } else form(d, fields)
  }
  randomQuery(rng, d)
  hostileHeaders(rng, fromSite(d))
  if (chance(rng, 0.3)) d.cookies.push(`${pick(rng, ["x", t.cookies.state, t.cookies.challenge])}=${headerText(rng, 100).replace(/;/g, "")}`)
  await f.send(d)
}

export const scenarios = { random, csrf, credentials, oidcCallback, fullOidc, oidcSignIn, emailSignIn, emailLink, passkey, signedIn } as const
export type ScenarioName = keyof typeof scenarios

/** How often each scenario runs against a valid configuration. */
export const scenarioWeights: Readonly<Record<ScenarioName, number>> = {
  random: 30,
  csrf: 10,
  credentials: 5,
  oidcCallback: 14,
  fullOidc: 0.4,
  oidcSignIn: 6,
  emailSignIn: 5,
  emailLink: 8,
  passkey: 12,
  signedIn: 9,
}
