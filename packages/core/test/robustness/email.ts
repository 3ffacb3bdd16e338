/**
 * The email provider: asking for links with hostile addresses and callback URLs, opening links
 * with junk tokens (the confirmation page, or the answer to a prefetch), confirming them with junk
 * tokens, and now and then a real link opened and confirmed with hostile headers or a tampered
 * field.
 */
import { confirmationForm } from "../email/helpers.js"
import { origin } from "../helpers.js"
import { csrfCookie, form, fromSite, hostile, path, setCookies, type Scenario } from "./fuzz.js"
import { draft, hostileHeaders } from "./generators.js"
import { chance, garbage, mutate, pick, tokenLike } from "./random.js"
import { ids } from "./targets.js"

/** Asking for an email link: hostile addresses and callback URLs, with a real CSRF token. */
export const emailSignIn: Scenario = async (f) => {
  const { rng, target: t } = f
  const d = draft("POST", path(t, `signin/${ids.email}`))
  d.cookies.push(csrfCookie(t))
  const email = pick(rng, [
    "alice@example.com",
    t.material.passkeyEmail,
    `${tokenLike(rng, 10)}@example.com`,
    "ALICE@Example.COM",
    "alice@example.com, evil@example.com",
    "alice@example.com\nBcc: evil@example.com",
    '"a@b"@example.com',
    "a@b@c",
    "@example.com",
    "x".repeat(300) + "@example.com",
    "\u00e9l\u00e8ve@exa\u0301mple.com",
    garbage(rng, 40),
  ])
  const fields: Record<string, string> = { csrfToken: chance(rng, 0.9) ? t.material.csrf!.token : "", email }
  if (chance(rng, 0.5)) fields.callbackUrl = pick(rng, ["https://evil.example", "//evil.example", "/dashboard", `${origin}/ok`])
  await f.send(hostile(f, form(d, fields)))
}

/** Opening and confirming email links: junk tokens mostly, a real link now and then. */
export const emailLink: Scenario = async (f) => {
  const { rng, target: t } = f
  const junk = () => ({
    token: pick(rng, [tokenLike(rng, 64), "", garbage(rng, 30), "x".repeat(5000), "0".repeat(64)]),
    email: pick(rng, ["alice@example.com", t.material.passkeyEmail, "", garbage(rng, 20), "a@b"]),
  })
  if (chance(rng, 0.5)) {
    // Opening a link: the confirmation page (or the answer to a prefetch).
    const d = draft(chance(rng, 0.9) ? "GET" : "HEAD", path(t, `callback/${ids.email}`))
    const { token, email } = junk()
    d.query.push(["token", token], ["email", email])
    if (chance(rng, 0.4)) d.query.push(["callbackUrl", pick(rng, ["https://evil.example", "/dashboard", "javascript:alert(1)"])])
    await f.send(hostile(f, d))
    return
  }
  if (chance(rng, 0.9)) {
    // Confirming with a junk token (and a CSRF token that is right most of the time).
    const d = draft("POST", path(t, `callback/${ids.email}`))
    d.cookies.push(csrfCookie(t))
    const fields: Record<string, string> = { ...junk(), csrfToken: chance(rng, 0.8) ? t.material.csrf!.token : mutate(rng, t.material.csrf!.token) }
    if (chance(rng, 0.3)) fields.callbackUrl = pick(rng, ["https://evil.example", "//evil.example", "/dashboard"])
    await f.send(hostile(f, form(d, fields)))
    return
  }
  // A real link: asked for cleanly, then opened and confirmed with hostile headers, or tampered with.
  const ask = form(draft("POST", path(t, `signin/${ids.email}`)), { csrfToken: t.material.csrf!.token, email: `${tokenLike(rng, 12).toLowerCase()}@example.com` })
  ask.cookies.push(csrfCookie(t))
  const sentBefore = t.material.sent.length
  await f.send(fromSite(ask))
  const sent = t.material.sent[sentBefore]
  if (!sent) return
  const link = new URL(sent.url)
  const open = draft("GET", link.pathname)
  open.query.push(...link.searchParams)
  const page = await f.send(hostile(f, open, false))
  if (!page || page.status !== 200) return
  const { action, fields } = confirmationForm(page.text)
  const target = new URL(action, origin)
  const confirm = draft("POST", target.pathname)
  confirm.query.push(...target.searchParams)
  // As a browser does: the page's own CSRF cookie replaces the one it had (never both: a CSRF
  // cookie sent twice is the sign of a planted one, and is not trusted).
  const fromPage = setCookies(page)
  const csrfName = t.material.csrf!.name
  confirm.cookies.push(...fromPage, ...(fromPage.some((c) => c.startsWith(`${csrfName}=`)) ? [] : [csrfCookie(t)]))
  if (chance(rng, 0.3)) {
    const name = pick(rng, Object.keys(fields))
    fields[name] = mutate(rng, fields[name]!)
  }
  hostileHeaders(rng, fromSite(form(confirm, fields)))
  await f.send(confirm)
}

