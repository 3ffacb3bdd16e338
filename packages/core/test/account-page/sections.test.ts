/**
 * The account page over HTTP, section by section: what it shows, each change it posts and where
 * that leads; and the attacks: no CSRF token, another site's post, another user's session or
 * passkey id, a stale sign-in for what weakens the account.
 */
import { html, type AuthConfig, type SesameModule } from "@sesame/core"
import { SoftAuthenticator } from "@sesame/testing"
import { afterEach, describe, expect, it, vi } from "vitest"
import { aliceCredentials, CookieJar, csrfToken, origin, send, signInAlice } from "../helpers.js"
import { register } from "../webauthn/harness.js"
import { AuthenticatorApp, recoveryCodesOf } from "../two-factor/harness.js"
import { accountUrl, app, back, hiddenValues, later, page, password, post, section, signedIn, stepUp, user, type App } from "./harness.js"

afterEach(() => {
  vi.useRealTimers()
})

const signedInAs = async (a: App, jar: CookieJar) => ((await (await send(a.config, "/auth/session", { jar })).json()) as { user?: { email?: string } } | null)?.user?.email ?? null

describe("the page", () => {
  it("sends a visitor who is not signed in to sign in, coming back here", async () => {
    const a = app()
    const response = await send(a.config, "/auth/account")
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${origin}/auth/signin?${new URLSearchParams({ callbackUrl: accountUrl })}`)
    const posted = await post(a, new CookieJar(), "profile", { name: "Mallory" })
    expect(posted.location).toBe(`${origin}/auth/signin?${new URLSearchParams({ callbackUrl: accountUrl })}`)
  })

  it("answers 404, not a sign-in that comes straight back, to a session whose user the adapter does not keep", async () => {
    const a = app({ session: { strategy: "jwt" }, providers: [aliceCredentials()] })
    const jar = new CookieJar()
    await signInAlice(a.config, jar)
    expect((await send(a.config, "/auth/session", { jar }).then((r) => r.json()))?.user?.email).toBe("alice@example.com")
    expect((await send(a.config, "/auth/account", { jar })).status).toBe(404)
  })

  it("shows every section the configuration can serve, in order, with the strict CSP and no cache", async () => {
    const a = app()
    await user(a)
    const jar = await signedIn(a)
    const response = await send(a.config, "/auth/account", { jar })
    const body = await response.text()
    expect(response.headers.get("content-security-policy")).toMatch(/^default-src 'none'; style-src 'nonce-[^']+'; script-src 'nonce-[^']+'; connect-src 'self'/)
    expect(response.headers.get("cache-control")).toContain("no-store")
    const ids = [...body.matchAll(/<section id="([^"]+)"/g)].map((m) => m[1])
    expect(ids).toEqual(["profile", "email", "password", "passkeys", "twoFactor", "sessions", "delete"])
    expect(body).toContain("Signed in as ada@example.com")
  })

  it("speaks the visitor's language", async () => {
    const a = app()
    await user(a)
    const jar = await signedIn(a)
    for (const [lang, heading] of [
      ["de", "Ihr Konto"],
      ["es", "Tu cuenta"],
      ["fr", "Votre compte"],
      ["ja", "アカウント"],
    ]) {
      const body = await (await send(a.config, "/auth/account", { jar, headers: { "accept-language": lang! } })).text()
      expect(body).toContain(`<html lang="${lang}"`)
      expect(body).toContain(`<h1>${heading}</h1>`)
    }
  })

  it("leaves out the sections the app turns off, whose changes then answer 404", async () => {
    const a = app({ accountPage: { sections: { delete: false, passkeys: false } } })
    await user(a)
    const jar = await signedIn(a)
    const body = await page(a, jar)
    expect(section(body, "delete")).toBe("")
    expect(section(body, "passkeys")).toBe("")
    expect((await post(a, jar, "delete", { confirm: "yes" })).response.status).toBe(404)
    expect(await a.adapter.getUserByEmail("ada@example.com")).not.toBeNull()
  })

  it("is off with `accountPage: false` and without an adapter; `pages.account` sends visitors to the app's page", async () => {
    const off = app({ accountPage: false })
    expect((await send(off.config, "/auth/account")).status).toBe(404)
    const none: AuthConfig = { ...app().config, adapter: undefined, providers: [] }
    expect((await send(none, "/auth/account")).status).toBe(404)
    const custom = app({ pages: { account: "/settings" } })
    const response = await send(custom.config, "/auth/account")
    expect(response.headers.get("location")).toBe(`${origin}/settings`)
    const customOnly = app({ pages: { account: "/settings" }, accountPage: false })
    expect((await send(customOnly.config, "/auth/account")).headers.get("location")).toBe(`${origin}/settings`)
  })

  it("shows the built-in page when `pages.account` names the endpoint itself, which would redirect forever", async () => {
    const a = app({ pages: { account: "/auth/account" } })
    await user(a)
    const jar = await signedIn(a)
    expect(await page(a, jar)).toContain("<h1>Your account</h1>")
    expect(a.errors.map(String).join("\n")).toMatch(/pages\.account/)
  })

  it("wears the app's theme", async () => {
    const a = app({ theme: { brandColor: "#0a7d32", colorScheme: "dark", logo: "/logo.svg" } })
    await user(a)
    const body = await page(a, await signedIn(a))
    expect(body).toContain("--brand:#0a7d32")
    expect(body).toContain('class="scheme-dark"')
    expect(body).toContain('<img class="logo" src="/logo.svg" alt="">')
  })

  it("refuses an unknown section name in the option", async () => {
    const a = app({ accountPage: { sections: { nope: false } as never } })
    expect((await send(a.config, "/auth/account")).status).toBe(500)
  })

  it("shows a query's notice or error only as a fixed text of its section, never the value", async () => {
    const a = app()
    await user(a)
    const jar = await signedIn(a)
    const body = await page(a, jar, `?${new URLSearchParams({ error: "<script>x</script>", in: "profile" })}`)
    expect(body).not.toContain("<script>x")
    expect(section(body, "profile")).toContain("Something went wrong")
    expect(await page(a, jar, "?notice=whatever&in=profile")).not.toContain("whatever")
  })
})

describe("the forms' defences", () => {
  it("refuses a post without the CSRF token, and one from another site with a valid pair, changing nothing", async () => {
    const a = app()
    await user(a)
    const jar = await signedIn(a)
    const without = await send(a.config, "/auth/account/profile", { jar, form: { name: "Mallory" }, headers: { origin, "sec-fetch-site": "same-origin" } })
    expect(new URL(without.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF")
    const crossSite = await post(a, jar, "profile", { name: "Mallory" }, { origin: "https://evil.example", "sec-fetch-site": "cross-site" })
    expect(crossSite.response.status).toBe(403)
    const deleting = await post(a, jar, "delete", { confirm: "yes" }, { origin: "https://evil.example", "sec-fetch-site": "cross-site" })
    expect(deleting.response.status).toBe(403)
    expect((await a.adapter.getUserByEmail("ada@example.com"))?.name).toBe("Ada")
  })
})

describe("profile", () => {
  it("saves the name, the picture and the app's fields users may set, and none that they may not", async () => {
    const a = app({ user: { fields: { locale: { type: "string", optional: true, input: true }, newsletter: { type: "boolean", optional: true, input: true }, role: { type: "string", default: "member" } } } })
    const ada = await user(a)
    const jar = await signedIn(a)
    const body = await page(a, jar)
    expect(section(body, "profile")).toContain('name="locale"')
    expect(section(body, "profile")).not.toContain('name="role"')
    const saved = await post(a, jar, "profile", { name: "Ada L.", image: "https://example.com/ada.png", locale: "fr", newsletter: "true", role: "admin" })
    expect(saved.location).toBe(back("profile", { notice: "profile" }))
    const stored = (await a.adapter.getUser(ada.id)) as unknown as Record<string, unknown>
    expect(stored).toMatchObject({ name: "Ada L.", image: "https://example.com/ada.png", locale: "fr", newsletter: true })
    expect(stored.role).not.toBe("admin")
    expect(section(await page(a, jar), "profile")).toContain('value="Ada L."')
  })

  it("refuses a picture that is not an https link, and a field's bad value", async () => {
    const a = app({ user: { fields: { age: { type: "integer", optional: true, input: true } } } })
    const ada = await user(a)
    const jar = await signedIn(a)
    expect((await post(a, jar, "profile", { name: "Ada", image: "javascript:alert(1)" })).location).toBe(back("profile", { error: "InvalidImage" }))
    expect((await post(a, jar, "profile", { name: "Ada", age: "old" })).location).toBe(back("profile", { error: "InvalidField" }))
    expect((await a.adapter.getUser(ada.id))?.image ?? null).toBeNull()
  })
})

describe("password", () => {
  it("changes the password with the current one, ending the other sessions", async () => {
    const a = app()
    await user(a)
    const jar = await signedIn(a)
    const other = await signedIn(a)
    expect((await post(a, jar, "password", { currentPassword: "wrong one", newPassword: "a brand new passphrase" })).location).toBe(back("password", { error: "WrongPassword" }))
    expect((await post(a, jar, "password", { currentPassword: password, newPassword: "short" })).location).toBe(back("password", { error: "too-short" }))
    expect(section(await page(a, jar, "?error=too-short&in=password"), "password")).toContain("That password is too short.")
    expect((await post(a, jar, "password", { currentPassword: password, newPassword: "a brand new passphrase" })).location).toBe(back("password", { notice: "password-changed" }))
    expect(await signedInAs(a, jar)).toBe("ada@example.com")
    expect(await signedInAs(a, other)).toBeNull()
  })

  it("sets a first password only after a recent sign-in", async () => {
    const a = app()
    const jar = await signedInWithoutPassword(a, "pat@example.com")
    expect(section(await page(a, jar), "password")).toContain("You have no password yet")
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(later())
    expect((await post(a, jar, "password", { newPassword: "a brand new passphrase" })).location).toBe(stepUp("password"))
    expect(section(await page(a, jar), "password")).toContain("You have no password yet")
    // Back to the moment of the sign-in: recent again.
    vi.useRealTimers()
    expect((await post(a, jar, "password", { newPassword: "a brand new passphrase" })).location).toBe(back("password", { notice: "password-set" }))
    expect(section(await page(a, jar), "password")).toContain("Current password")
  })
})

/** A browser signed up with a passkey as `email`: a user without a password, signed in now. */
async function signedInWithoutPassword(a: App, email: string): Promise<CookieJar> {
  const jar = new CookieJar()
  const { response } = await register(a.config, jar, new SoftAuthenticator(), email)
  expect(response.status).toBe(302)
  expect(await signedInAs(a, jar)).toBe(email)
  return jar
}

describe("passkeys", () => {
  it("lists the user's passkeys; renames and removes one; refuses another user's passkey and a stale removal", async () => {
    const a = app()
    const ada = await user(a)
    await user(a, "eve@example.com")
    const jar = await signedIn(a)
    const eve = await signedIn(a, "eve@example.com")
    const added = await register(a.config, jar, new SoftAuthenticator())
    expect(added.response.status).toBe(302)
    const eveKey = await register(a.config, eve, new SoftAuthenticator())
    expect(eveKey.response.status).toBe(302)

    const body = section(await page(a, jar), "passkeys")
    const [id] = hiddenValues(body, "id")
    expect(id).toBeDefined()
    const evesId = hiddenValues(section(await page(a, eve), "passkeys"), "id")[0]!
    expect(body).not.toContain(evesId)

    expect((await post(a, jar, "passkey-rename", { id: id!, name: "Laptop" })).location).toBe(back("passkeys", { notice: "passkey-renamed" }))
    expect(section(await page(a, jar), "passkeys")).toContain("Laptop")
    expect((await post(a, jar, "passkey-rename", { id: id!, name: "" })).location).toBe(back("passkeys", { error: "InvalidName" }))
    expect((await post(a, jar, "passkey-rename", { id: evesId, name: "Mine now" })).location).toBe(back("passkeys", { error: "NotFound" }))
    expect((await post(a, jar, "passkey-remove", { id: evesId })).location).toBe(back("passkeys", { error: "NotFound" }))
    expect(await a.adapter.getAuthenticator(evesId)).not.toBeNull()

    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(later())
    expect((await post(a, jar, "passkey-remove", { id: id! })).location).toBe(stepUp("passkeys"))
    expect(await a.adapter.getAuthenticator(id!)).not.toBeNull()
    // Stale: the add button gives way to the step-up, whose page the passkey script is not needed for.
    expect(section(await page(a, jar), "passkeys")).toContain("Confirm it’s you to add a passkey")
    vi.useRealTimers()

    const fresh = await signedIn(a)
    expect((await post(a, fresh, "passkey-remove", { id: id! })).location).toBe(back("passkeys", { notice: "passkey-removed" }))
    expect(await a.adapter.listAuthenticatorsByUserId(ada.id)).toEqual([])
  })

  it("offers adding a passkey through the passkey script, with a text for browsers without JavaScript", async () => {
    const a = app()
    await user(a)
    const body = await page(a, await signedIn(a))
    expect(body).toMatch(/<script nonce="[^"]+" src="\/auth\/webauthn-script\?v=[^"]+" defer><\/script>/)
    expect(section(body, "passkeys")).toContain('data-passkey-action="register"')
    expect(section(body, "passkeys")).toContain("<noscript>")
  })
})

describe("two-factor sign-in", () => {
  it("says whether it is on, with the recovery codes left, and links to its settings", async () => {
    const a = app()
    await user(a)
    const jar = await signedIn(a)
    expect(section(await page(a, jar), "twoFactor")).toContain("Turn on two-factor sign-in")
    const setup = await send(a.config, "/auth/two-factor/setup", { jar })
    const authenticator = AuthenticatorApp.fromSetupPage(await setup.text())
    const confirmed = await send(a.config, "/auth/two-factor/setup", { jar, form: { csrfToken: await csrfToken(a.config, jar), code: authenticator.code() } })
    expect(recoveryCodesOf(await confirmed.text())).toHaveLength(10)
    expect(section(await page(a, jar), "twoFactor")).toContain("On, with an authenticator app. Recovery codes left: 10.")
  })
})

describe("sessions", () => {
  it("lists the user's database sessions; signs out one by its id, never another user's; and everywhere else", async () => {
    const a = app()
    await user(a)
    await user(a, "eve@example.com")
    const jar = await signedIn(a)
    const phone = await signedIn(a)
    const laptop = await signedIn(a)
    const eve = await signedIn(a, "eve@example.com")
    const body = section(await page(a, jar), "sessions")
    expect(body.match(/<li>/g)).toHaveLength(3)
    expect(body).toContain("This browser")
    const ids = hiddenValues(body, "id")
    expect(ids).toHaveLength(2)
    const evesIds = hiddenValues(section(await page(a, eve), "sessions"), "id")
    expect(evesIds).toEqual([])

    // Another user's session id (Eve revokes with one of Ada's): not found, nothing ends.
    expect((await post(a, eve, "session-revoke", { id: ids[0]! })).location).toBe(back("sessions", { error: "NotFound" }))
    expect([await signedInAs(a, phone), await signedInAs(a, laptop)]).toEqual(["ada@example.com", "ada@example.com"])

    expect((await post(a, jar, "session-revoke", { id: ids[0]! })).location).toBe(back("sessions", { notice: "session-revoked" }))
    const left = [await signedInAs(a, phone), await signedInAs(a, laptop)]
    expect(left.filter(Boolean)).toHaveLength(1)
    expect((await post(a, jar, "sessions-revoke", {})).location).toBe(back("sessions", { notice: "sessions-revoked" }))
    expect([await signedInAs(a, phone), await signedInAs(a, laptop), await signedInAs(a, jar), await signedInAs(a, eve)]).toEqual([null, null, "ada@example.com", "eve@example.com"])
  })

  it("with JWT sessions and revocation: only signing out everywhere else", async () => {
    const a = app({ session: { strategy: "jwt", revocation: true } })
    await user(a)
    const jar = await signedIn(a)
    const other = await signedIn(a)
    const body = section(await page(a, jar), "sessions")
    expect(body).toContain("cannot be listed")
    expect(body).not.toContain("session-revoke\"")
    expect((await post(a, jar, "session-revoke", { id: "x" })).response.status).toBe(404)
    expect((await post(a, jar, "sessions-revoke", {})).location).toBe(back("sessions", { notice: "sessions-revoked" }))
    expect(await signedInAs(a, other)).toBeNull()
    expect(await signedInAs(a, jar)).toBe("ada@example.com")
  })

  it("with JWT sessions without revocation: says nothing can be listed or ended here", async () => {
    const a = app({ session: { strategy: "jwt" } })
    await user(a)
    const jar = await signedIn(a)
    const body = section(await page(a, jar), "sessions")
    expect(body).toContain("cannot be listed or signed out here")
    expect(body).not.toContain("<form")
    expect((await post(a, jar, "sessions-revoke", {})).response.status).toBe(404)
  })
})

describe("delete account", () => {
  it("needs the box ticked and a recent sign-in; then deletes the user and signs the browser out", async () => {
    const a = app()
    const ada = await user(a)
    const jar = await signedIn(a)
    expect((await post(a, jar, "delete", {})).location).toBe(back("delete", { error: "ConfirmDelete" }))
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(later())
    expect((await post(a, jar, "delete", { confirm: "yes" })).location).toBe(stepUp("delete"))
    expect(await a.adapter.getUser(ada.id)).not.toBeNull()
    vi.useRealTimers()
    const fresh = await signedIn(a)
    const deleted = await post(a, fresh, "delete", { confirm: "yes" })
    expect(deleted.location).toBe(`${origin}/`)
    expect(await a.adapter.getUser(ada.id)).toBeNull()
    expect(fresh.get("sesame.session-token")).toBeUndefined()
    expect(await signedInAs(a, jar)).toBeNull()
  })
})

describe("the plugins' sections", () => {
  it("shows each plugin's part in the configured order, and leaves out one that throws", async () => {
    const first: SesameModule = { id: "first", accountSection: async (r) => html`<h2>First</h2><p>${String((await r.user())?.email)}</p>` }
    const broken: SesameModule = { id: "broken", accountSection: () => { throw new Error("boom") } }
    const plain: SesameModule = { id: "plain", accountSection: () => "<b>raw</b>" as never }
    const none: SesameModule = { id: "none", accountSection: () => null }
    const last: SesameModule = { id: "last", accountSection: () => html`<h2>Last</h2>` }
    const a = app({ plugins: [first, broken, plain, none, last] })
    await user(a)
    const body = section(await page(a, await signedIn(a)), "plugins")
    expect(body).toContain("<h2>First</h2><p>ada@example.com</p>")
    expect(body.indexOf("First")).toBeLessThan(body.indexOf("Last"))
    expect(body).not.toContain("raw")
    expect(a.errors.map(String).join("\n")).toMatch(/boom[\s\S]*not made with `html`/)
  })
})
