/**
 * OIDC against the dev IdP. Callbacks of sign-ins pending at the IdP (real state, PKCE and nonce
 * cookies) with a forged state or broken parameters, by GET and by form_post POST; sign-in starts
 * whose parameters try to take over the authorization request; and, rarely, whole sign-ins whose
 * callback carries a real code, delivered with hostile headers or twice.
 *
 * Network calls are rare on purpose: a forged state, an `error` parameter or a wrong `iss` fail
 * before any call to the IdP; only the `exchange` kind of callback and whole sign-ins reach its
 * token endpoint.
 */
import { atProvider } from "../oauth/harness.js"
import { csrfCookie, form, fromSite, hostile, path, setCookies, type Scenario } from "./fuzz.js"
import { draft, hostileHeaders } from "./generators.js"
import { chance, garbage, int, mutate, pick, tokenLike, weighted } from "./random.js"
import { ids } from "./targets.js"

/** The OIDC callback of a pending sign-in, its state forged or its parameters broken. */
export const oidcCallback: Scenario = async (f) => {
  const { rng, target: t, idp } = f
  const pending = pick(rng, t.material.pending)
  const kind = weighted(rng, { forgedState: 55, realStateBroken: 40, exchange: 3 })
  const params: Record<string, string> = {}
  if (kind === "forgedState") {
    const other = pick(rng, t.material.pending).state
    const state = pick(rng, [mutate(rng, pending.state), tokenLike(rng, int(rng, 600)), other === pending.state ? "" : other, garbage(rng, 30), "null"])
    if (chance(rng, 0.9)) params.state = state
  } else {
    params.state = pending.state
  }
  if (kind === "exchange") {
    params.code = tokenLike(rng, 43)
    params.iss = idp.issuer
  } else {
    const broken = int(rng, 4)
    if (broken === 0 || chance(rng, 0.3)) params.error = pick(rng, ["access_denied", "server_error", "invalid_request", "temporarily_unavailable", garbage(rng, 20)])
    if (broken === 0 && chance(rng, 0.5)) params.error_description = garbage(rng, 80)
    if (broken === 1 || chance(rng, 0.3)) params.iss = pick(rng, ["https://evil.example", `${idp.issuer}/`, "", garbage(rng, 20), idp.issuer.replace("127.0.0.1", "localhost")])
    if (broken === 2 || chance(rng, 0.5)) params.code = pick(rng, ["", tokenLike(rng, 43), garbage(rng, 50), "x".repeat(5000)])
    else if (broken === 3) params.iss = idp.issuer
  }
  if (chance(rng, 0.1)) params[pick(rng, ["session_state", "id_token", "access_token", "scope", "callbackUrl"])] = garbage(rng, 40)
  const post = pending.formPost ? chance(rng, 0.85) : chance(rng, 0.15)
  const d = draft(post ? "POST" : "GET", path(t, `callback/${ids.oidc}`))
  if (post) form(d, params)
  else d.query.push(...Object.entries(params))
  const cookies = pending.cookie.split("; ")
  d.cookies.push(...(chance(rng, 0.85) ? cookies : cookies.filter(() => chance(rng, 0.6)).map((c) => (chance(rng, 0.3) ? mutate(rng, c) : c))))
  await f.send(hostile(f, d, chance(rng, 0.5)))
}

/** A whole OIDC sign-in: the callback carries a real code, delivered with hostile headers (or twice). */
export const fullOidc: Scenario = async (f) => {
  const { rng, target: t } = f
  const formPost = chance(rng, 0.4)
  const start = draft("POST", path(t, `signin/${ids.oidc}`))
  start.cookies.push(csrfCookie(t))
  const fields: Record<string, string> = { csrfToken: t.material.csrf!.token }
  if (formPost) fields.response_mode = "form_post"
  if (chance(rng, 0.5)) fields.login_hint = pick(rng, ["alice", "bob"])
  if (chance(rng, 0.3)) fields.callbackUrl = pick(rng, ["/dashboard", "https://evil.example", "//evil.example"])
  const started = await f.send(fromSite(form(start, fields)))
  const location = started?.headers.get("location")
  if (!started || !location || !location.startsWith(f.idp.issuer)) return
  const answer = await atProvider(location, new URL(location).searchParams.get("redirect_uri")!)
  const cookies = [...start.cookies, ...setCookies(started)]
  for (let attempt = 0, times = chance(rng, 0.2) ? 2 : 1; attempt < times; attempt++) {
    const url = new URL(answer.kind === "redirect" ? answer.url : answer.action)
    const d = draft(answer.kind === "redirect" ? "GET" : "POST", url.pathname)
    if (answer.kind === "redirect") d.query.push(...url.searchParams)
    else form(d, answer.fields)
    d.cookies.push(...cookies)
    hostileHeaders(rng, fromSite(d, f.idp.issuer))
    await f.send(d)
  }
}

/** Starting an OIDC sign-in with parameters that try to take over the authorization request. */
export const oidcSignIn: Scenario = async (f) => {
  const { rng, target: t } = f
  const d = draft(chance(rng, 0.9) ? "POST" : "GET", path(t, `signin/${ids.oidc}`))
  d.cookies.push(csrfCookie(t))
  const fields: Record<string, string> = { csrfToken: chance(rng, 0.85) ? t.material.csrf!.token : mutate(rng, t.material.csrf!.token) }
  const hijack: [string, string][] = [
    ["redirect_uri", "https://evil.example/callback"],
    ["state", tokenLike(rng, 40)],
    ["nonce", "n"],
    ["client_id", "other"],
    ["response_type", "token"],
    ["response_mode", pick(rng, ["form_post", "query", "fragment", "web_message", garbage(rng, 10)])],
    ["code_challenge", tokenLike(rng, 43)],
    ["code_challenge_method", "plain"],
    ["prompt", pick(rng, ["login", "none", "consent", garbage(rng, 10)])],
    ["login_hint", pick(rng, ["alice", "bob", "nobody", garbage(rng, 30)])],
    ["scope", pick(rng, ["openid", "openid email profile offline_access", garbage(rng, 20)])],
    ["callbackUrl", pick(rng, ["https://evil.example", "//evil.example", "/dashboard"])],
  ]
  for (const [name, value] of hijack) {
    if (!chance(rng, 0.25)) continue
    if (chance(rng, 0.5)) fields[name] = value
    else d.query.push([name, value])
  }
  if (d.method === "POST") form(d, fields)
  await f.send(hostile(f, d))
}

