/**
 * The example of docs/features/captcha.md, run as written: its configuration guards sign-up, the
 * forgotten-password request and email links with Turnstile (here against the local siteverify
 * stand-in, through `verifyUrl`), and leaves password sign-in to the throttle.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { AuthConfig } from "@sesame/core"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { CookieJar, csrfToken, origin, send } from "../helpers.js"
import { standInSecret, standInSiteKey, startSiteverify, type SiteverifyStandIn } from "./siteverify-stand-in.js"

const page = join(import.meta.dirname, "..", "..", "..", "..", "docs", "features", "captcha.md")
const scratch = join(import.meta.dirname, ".scratch")

/** The code block after `<!-- example: <name> ... -->` on the page. */
function example(name: string): string {
  const text = readFileSync(page, "utf8")
  const marker = text.indexOf(`<!-- example: ${name} `)
  if (marker === -1) throw new Error(`no example "${name}" in docs/features/captcha.md`)
  const match = /```ts\n([\s\S]*?)```/.exec(text.slice(marker))
  if (!match) throw new Error(`example "${name}" has no code block`)
  return match[1]!
}

let verify: SiteverifyStandIn
let config: AuthConfig

beforeAll(async () => {
  verify = await startSiteverify()
  vi.stubEnv("AUTH_SECRET", "captcha-docs-secret-0123456789-abcdefghijkl")
  vi.stubEnv("AUTH_TRUST_HOST", "true")
  vi.stubEnv("TURNSTILE_SITE_KEY", standInSiteKey)
  vi.stubEnv("TURNSTILE_SECRET_KEY", standInSecret)
  mkdirSync(scratch, { recursive: true })
  const file = join(scratch, "captcha.ts")
  writeFileSync(file, example("captcha"))
  const written = (await import(file)) as { config: AuthConfig }
  config = { ...written.config, captcha: { ...written.config.captcha!, verifyUrl: verify.url("turnstile") }, logger: { error: () => {}, warn: () => {}, debug: () => {} } }
})

afterAll(async () => {
  vi.unstubAllEnvs()
  await verify.close()
})

async function post(path: string, form: Record<string, string>) {
  const jar = new CookieJar()
  const response = await send(config, path, { jar, form: { csrfToken: await csrfToken(config, jar), ...form } })
  return response.headers.get("location")
}

describe("docs/features/captcha.md", () => {
  it("guards sign-up and the forgotten-password request with Turnstile, and not password sign-in", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {})
    const account = { email: "ada@example.com", password: "a long enough passphrase" }
    expect(await post("/auth/signup/password", account)).toBe(`${origin}/auth/signup?error=CaptchaFailed&email=ada%40example.com`)
    expect(await post("/auth/signup/password", { ...account, "cf-turnstile-response": verify.issue() })).toBe(`${origin}/auth/signup?sent=1`)
    expect(await post("/auth/forgot-password/password", { email: account.email })).toContain("error=CaptchaFailed")
    expect(await post("/auth/forgot-password/password", { email: account.email, "cf-turnstile-response": verify.issue() })).toBe(`${origin}/auth/forgot-password?sent=1`)
    // Sign-in is not in `on`: no token asked (the address is not confirmed yet, which is the answer).
    expect(await post("/auth/callback/password", account)).toBe(`${origin}/auth/signin?error=EmailNotVerified`)
    expect(log).toHaveBeenCalledWith(expect.stringContaining("mail to ada@example.com"))
    log.mockRestore()
  })
})
