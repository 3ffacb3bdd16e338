/**
 * What the account page's tests share: an app with the memory adapter, the password provider
 * (whose sender keeps the emails instead of sending them), passkeys and, when given, the dev IdP;
 * browsers that sign in with a password; and the page's forms read back from its HTML, as a
 * browser would post them.
 */
import type { AuthConfig, PasswordEmailParams } from "@sesame/core"
import { MemoryAdapter, type AdapterUser, type MemoryAdapterInstance } from "@sesame/core/adapters"
import Passkey from "@sesame/core/providers/passkey"
import Password from "@sesame/core/providers/password"
import { argon2id } from "@sesame/core/password"
import { expect } from "vitest"
import { CookieJar, csrfToken, origin, secret, send } from "../helpers.js"
import { storePassword } from "../../src/password/storage.js"

export const password = "correct horse battery"
export const accountUrl = `${origin}/auth/account`
const hasher = argon2id({ memoryCost: 64, timeCost: 1 })

export interface App {
  config: AuthConfig
  adapter: MemoryAdapterInstance
  mails: PasswordEmailParams[]
  errors: unknown[]
}

export function app(overrides: Partial<AuthConfig> = {}): App {
  const adapter = MemoryAdapter()
  const mails: PasswordEmailParams[] = []
  const errors: unknown[] = []
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    providers: [Password({ sendEmail: (mail) => void mails.push(mail), hasher }), Passkey()],
    experimental: { enableWebAuthn: true },
    logger: { error: (e) => void errors.push(e), warn: () => {}, debug: () => {} },
    ...overrides,
  }
  return { config, adapter, mails, errors }
}

/** A confirmed user with a password. */
export async function user(a: App, email = "ada@example.com", withPassword = true): Promise<AdapterUser> {
  const created = await a.adapter.createUser({ id: crypto.randomUUID(), email, name: "Ada", emailVerified: new Date() })
  if (withPassword) await storePassword(a.adapter, { userId: created.id, hash: await hasher.hash(password), updatedAt: new Date() })
  return created
}

/** A browser signed in as `email` with the password. */
export async function signedIn(a: App, email = "ada@example.com"): Promise<CookieJar> {
  const jar = new CookieJar()
  const response = await send(a.config, "/auth/callback/password", { jar, form: { csrfToken: await csrfToken(a.config, jar), email, password } })
  expect(response.status, "the password sign-in").toBe(302)
  expect(response.headers.get("location")).toBe(`${origin}/`)
  return jar
}

/** The account page for `jar`: its HTML (expects a 200). */
export async function page(a: App, jar: CookieJar, query = ""): Promise<string> {
  const response = await send(a.config, `/auth/account${query}`, { jar })
  expect(response.status).toBe(200)
  return response.text()
}

/** Posts a form of the page to `account/<action>`, with the jar's CSRF token; returns the response and where it leads. */
export async function post(a: App, jar: CookieJar, action: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await send(a.config, `/auth/account/${action}`, { jar, headers, form: { csrfToken: await csrfToken(a.config, jar), ...form } })
  return { response, location: response.headers.get("location") ?? "" }
}

/** `account?<query>#<section>` as the page's redirects spell it. */
export function back(section: string, query: Record<string, string>): string {
  return `${accountUrl}?${new URLSearchParams({ ...query, in: section })}#${section}`
}

/** Where a stale sign-in is sent for `section`: the step-up, coming back to it. */
export function stepUp(section: string): string {
  return `${origin}/auth/reauthenticate?${new URLSearchParams({ callbackUrl: `${accountUrl}#${section}` })}`
}

/** The values of the hidden fields named `name` in the page's forms, in order. */
export function hiddenValues(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`, "g"))].map((m) => m[1]!.replace(/&amp;/g, "&"))
}

/** The section `id` of the page (its markup up to the next section). */
export function section(html: string, id: string): string {
  const start = html.indexOf(`<section id="${id}"`)
  if (start < 0) return ""
  const end = html.indexOf("</section>", start)
  return html.slice(start, end)
}

/** The link of the last email-change email. */
export function changeLink(a: App): string {
  const mail = [...a.mails].reverse().find((m) => m.kind === "change-email")
  expect(mail, "a change-email email was sent").toBeDefined()
  return mail!.url
}

/** Lets the sign-in grow stale (11 minutes later; `session.freshAge` is 10). */
export const later = (minutes = 11) => Date.now() + minutes * 60 * 1000
