/**
 * Passkey ceremonies with the software authenticator: real options and challenge cookie, then a
 * response that is garbage JSON, signed over the wrong origin, RP ID, type or challenge, missing
 * user verification, tampered with, posted for the other ceremony, or (sometimes) valid.
 */
import { SoftAuthenticator, type CeremonyOverrides, type CreationOptionsJSON, type RequestOptionsJSON } from "@sesame/testing"
import { origin } from "../helpers.js"
import { form, fromSite, hostile, json, path, setCookies, type Scenario } from "./fuzz.js"
import { draft, hostileHeaders } from "./generators.js"
import { chance, garbage, mutate, pick, tokenLike, weighted } from "./random.js"
import { ids } from "./targets.js"

/** A passkey ceremony: real options and challenge cookie, then a garbage, tampered or (rarely) valid response. */
export const passkey: Scenario = async (f) => {
  const { rng, target: t } = f
  const ask = draft("GET", path(t, `webauthn-options/${ids.passkey}`))
  const action = pick(rng, ["authenticate", "authenticate", "register", "", "delete", garbage(rng, 8)])
  if (action) ask.query.push(["action", action])
  if (chance(rng, 0.5)) ask.query.push(["email", pick(rng, [t.material.passkeyEmail, `${tokenLike(rng, 8).toLowerCase()}@example.com`, "not-an-email", " ", garbage(rng, 20)])])
  const own = t.material.sessions
  if (chance(rng, 0.25) && own.length) {
    const real = pick(rng, own)
    ask.cookies.push(`${real.name}=${real.value}`)
  }
  fromSite(ask)
  if (chance(rng, 0.2)) hostileHeaders(rng, ask)
  const asked = await f.send(ask)
  if (!asked || asked.status !== 200) return
  let body: { action?: string; options?: RequestOptionsJSON & CreationOptionsJSON }
  try {
    body = JSON.parse(asked.text) as typeof body
  } catch {
    return
  }
  if (!body.options) return
  const challengeCookies = setCookies(asked)
  const ceremony = body.action === "register" ? "register" : "authenticate"
  const key = ceremony === "register" ? new SoftAuthenticator() : t.material.authenticator!
  const overrides: CeremonyOverrides = { origin }
  const tamper = weighted(rng, { none: 10, origin: 10, rpId: 5, type: 5, challenge: 10, userVerified: 5, garbage: 40, fields: 15 })
  if (tamper === "origin") overrides.origin = pick(rng, ["http://evil.example", "https://localhost:3000", "http://localhost:3001", "null"])
  if (tamper === "rpId") overrides.rpId = pick(rng, ["evil.example", "localhost.evil.example", "127.0.0.1"])
  if (tamper === "type") overrides.type = ceremony === "register" ? "webauthn.get" : "webauthn.create"
  if (tamper === "challenge") overrides.challenge = tokenLike(rng, 43)
  if (tamper === "userVerified") overrides.userVerified = false
  let data: unknown
  if (tamper === "garbage") {
    data = pick<unknown>(rng, [
      null,
      42,
      "x",
      [],
      {},
      { id: tokenLike(rng, 43), rawId: tokenLike(rng, 43), type: "public-key", response: {} },
      { id: tokenLike(rng, 43), type: "public-key", response: { clientDataJSON: tokenLike(rng, 100), authenticatorData: tokenLike(rng, 50), signature: tokenLike(rng, 70) } },
      { id: "%%%", rawId: "###", type: "public-key", response: { clientDataJSON: "!", attestationObject: "!" } },
      { id: garbage(rng, 20), response: { clientDataJSON: garbage(rng, 50) } },
      { toString: "x", valueOf: 1, id: "x".repeat(100_000) },
    ])
  } else {
    let response
    try {
      response = ceremony === "register" ? key.register(body.options, overrides) : key.authenticate(body.options, overrides)
    } catch {
      // Options for another RP (a forged host) or with no usable credential: the authenticator declines.
      return
    }
    if (tamper === "fields") {
      const parts = response.response as unknown as Record<string, string>
      const name = pick(rng, Object.keys(parts))
      parts[name] = chance(rng, 0.7) ? mutate(rng, String(parts[name])) : tokenLike(rng, 40)
      if (chance(rng, 0.3)) response.id = mutate(rng, response.id)
    }
    data = response
  }
  const d = draft("POST", path(t, `callback/${ids.passkey}`))
  const posted = chance(rng, 0.1) ? pick(rng, ["authenticate", "register", "", garbage(rng, 6)]) : ceremony
  if (chance(rng, 0.75)) json(d, { action: posted, data, ...(chance(rng, 0.2) ? { callbackUrl: pick(rng, ["https://evil.example", "/dashboard"]) } : {}) })
  else form(d, { action: posted, data: chance(rng, 0.8) ? JSON.stringify(data) : garbage(rng, 60) })
  const challenge = challengeCookies.filter(() => chance(rng, 0.9)).map((c) => (chance(rng, 0.1) ? mutate(rng, c) : c))
  d.cookies.push(...(chance(rng, 0.1) ? [`${t.cookies.challenge}=${tokenLike(rng, 200)}`, ...challenge] : challenge), ...ask.cookies)
  await f.send(hostile(f, d, chance(rng, 0.3)))
}

