/**
 * Nothing secret in the logs of the email flow (the pattern of ../logging.test.ts): no link, no
 * token (raw, URL-encoded or hashed), no CSRF token, no session cookie, even with debug on and
 * when the sender's error quotes what it was given.
 */
import { describe, expect, it } from "vitest"
import { secret, send } from "../helpers.js"
import { confirmationForm, CookieJar, emailConfig, followLink, lastLink, openLink, recordingEmail, requestLink } from "./helpers.js"

describe("logging in the email flow", () => {
  it("never contains a link, a token, a CSRF token or a session cookie", async () => {
    const { provider, sent } = recordingEmail({ rateLimit: { perAddress: 2 } })
    const failing = recordingEmail({
      id: "failing",
      sendVerificationRequest({ url, token }) {
        // An HTTP email API that echoes the request it refused.
        const error = new Error(`422 Unprocessable: {"html":"<a href=\\"${url}\\">","token":"${encodeURIComponent(token)}"}`)
        Object.assign(error, { code: `E_${token}`, responseCode: 422 })
        throw error
      },
    }).provider
    const { config, adapter, logs } = emailConfig([provider, failing], { debug: true })

    // A sign-in, a replay, an altered link, a forged confirmation, the rate limit, a failed send.
    const jar = new CookieJar()
    await requestLink(config, jar, "ada@example.com")
    const link = lastLink(sent)
    const { fields } = confirmationForm(await (await openLink(config, new CookieJar(), link)).text())
    await followLink(config, jar, link)
    await followLink(config, new CookieJar(), link)
    await followLink(config, new CookieJar(), link.replace("email=ada", "email=eve"))
    await send(config, "/auth/callback/email", { jar: new CookieJar(), form: fields })
    for (let i = 0; i < 3; i++) await requestLink(config, new CookieJar(), "bob@example.com")
    await requestLink(config, new CookieJar(), "carol@example.com", { provider: "failing" })
    await requestLink(config, new CookieJar(), '"quoted"@example.com')
    await send(config, "/auth/session", { jar })

    const log = logs.join("\n")
    expect(log).toMatch(/EmailSignInError[\s\S]*422 Unprocessable/)
    expect(log).toContain("responseCode=422")
    expect(log).toContain("Verification")
    expect(log).toContain("MissingCSRF")
    expect(log).toContain("over the rate limit")
    const tokens = sent.map((s) => s.token)
    expect(tokens.length).toBeGreaterThanOrEqual(3)
    const secrets = [
      secret,
      ...sent.map((s) => s.url),
      ...tokens,
      ...tokens.map(encodeURIComponent),
      ...[...adapter.tables.verificationTokens.values()].map((t) => t.token),
      fields.csrfToken!,
      ...[...jar.cookies.values()].filter((v) => v.length > 20),
    ]
    for (const value of secrets) expect(log).not.toContain(value)
    // The failed send's echo is logged with the token cut out.
    expect(log).toContain("token=[redacted]")
    expect(log).not.toMatch(/token=(?!\[redacted\])/)
  })
})
