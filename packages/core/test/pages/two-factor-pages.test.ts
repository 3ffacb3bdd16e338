/**
 * The two-factor pages (challenge, settings, recovery codes, "confirm it's you") and their QR
 * code: the fields and their autocomplete hints, the forms' hidden fields, which texts an error or
 * notice shows (never the value itself), escaping, the response headers, and every language.
 * (browser-pages.test.ts checks the same pages in Chromium: axe, CSP, focus rings, the keyboard.)
 */
import decodeQR from "@paulmillr/qr/decode.js"
import { describe, expect, it } from "vitest"
import type { Messages } from "@sesame/core"
import { defaultTheme } from "../../src/config/defaults.js"
import type { InternalResponse } from "../../src/http/response.js"
import { translator } from "../../src/pages/i18n.js"
import { builtInCatalogues as allCatalogues, resolveMessages } from "../../src/config/appearance.js"
import { qrSvg } from "../../src/two-factor/qr.js"
import { challengePage, reauthenticatePage, recoveryCodesPage, setupPage, type ChallengePageParams, type SetupPageParams } from "../../src/two-factor/pages.js"
import { fixtureCodes, fixtureCsrf, fixtureSecret, fixtureUri, twoFactorCases } from "./two-factor-fixtures.js"

const origin = "https://app.example"
/** The capabilities' texts, as a resolved configuration without `messages` has them. */
const texts = resolveMessages(undefined)
/** Every built-in text by language: the core's and every capability's. */
const builtInCatalogues = allCatalogues()
const en = translator("en", texts)
const csrfField = `<input type="hidden" name="csrfToken" value="${fixtureCsrf}">`

const body = (res: InternalResponse) => res.body as string

/** The forms of a page: action, and the inputs and buttons in each. */
function forms(html: string): { action: string; inputs: string[]; buttons: string[] }[] {
  return [...html.matchAll(/<form action="([^"]*)" method="POST">([\s\S]*?)<\/form>/g)].map((m) => ({
    action: m[1]!,
    inputs: [...m[2]!.matchAll(/<input [^>]*>/g)].map((i) => i[0]),
    buttons: [...m[2]!.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((b) => b[1]!),
  }))
}

function challenge(overrides: Partial<ChallengePageParams> = {}, t = en): string {
  return body(
    challengePage(
      {
        action: `${origin}/auth/two-factor`,
        csrfToken: fixtureCsrf,
        method: "totp",
        mode: "code",
        codeUrl: `${origin}/auth/two-factor`,
        recoveryUrl: `${origin}/auth/two-factor?mode=recovery`,
        sent: false,
        error: undefined,
        signInUrl: `${origin}/auth/signin`,
        theme: defaultTheme,
        ...overrides,
      },
      t,
    ),
  )
}

const newState = { kind: "new", action: `${origin}/auth/two-factor/setup`, secret: fixtureSecret, uri: fixtureUri, emailOffered: false } as const
const enabledState = {
  kind: "enabled",
  method: "totp",
  enabledAt: new Date("2025-01-02T23:30:00Z"),
  recoveryCodesLeft: 7,
  regenerateAction: `${origin}/auth/two-factor/recovery-codes`,
  disableAction: `${origin}/auth/two-factor/disable`,
  codeNeeded: true,
} as const

function setup(overrides: Partial<SetupPageParams> = {}, t = en): string {
  return body(setupPage({ csrfToken: fixtureCsrf, theme: defaultTheme, error: undefined, notice: undefined, backUrl: `${origin}/account`, state: newState, ...overrides }, t))
}

function reauth(overrides: Partial<Parameters<typeof reauthenticatePage>[0]> = {}, t = en): string {
  return body(
    reauthenticatePage(
      {
        action: `${origin}/auth/reauthenticate`,
        csrfToken: fixtureCsrf,
        callbackUrl: `${origin}/account/delete`,
        error: undefined,
        signInUrl: `${origin}/auth/signin?callbackUrl=%2Faccount%2Fdelete`,
        theme: defaultTheme,
        ...overrides,
      },
      t,
    ),
  )
}

const codeInput = (id: string, extra = "") =>
  `<input id="${id}" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" required${extra}>`

describe("the challenge page", () => {
  it("asks for an authenticator app's code: one-time-code field, CSRF token, links to a recovery code and back to sign-in", () => {
    const html = challenge()
    expect(html).toContain("<h1>Two-factor authentication</h1>")
    expect(html).toContain("<title>Two-factor authentication</title>")
    expect(html).toContain('<p class="lead">Enter the code from your authenticator app.</p>')
    expect(forms(html)).toEqual([{ action: `${origin}/auth/two-factor`, inputs: [csrfField, codeInput("twofactor-code", " autofocus")], buttons: ["Continue"] }])
    expect(html).toContain('<label for="twofactor-code">Verification code</label>')
    expect(html).toContain(`<a href="${origin}/auth/two-factor?mode=recovery">Use a recovery code instead</a>`)
    expect(html).toContain(`<a href="${origin}/auth/signin">Cancel and go back to sign-in</a>`)
    expect(html).not.toContain('role="alert"')
    expect(html).not.toContain('role="status"')
    expect(html).not.toContain('name="remember"')
  })

  it("offers to remember the device for the given days, in the page's language", () => {
    const html = challenge({ rememberFor: 30 * 86_400 })
    const remember = '<input id="twofactor-remember" name="remember" type="checkbox" value="1">'
    expect(forms(html)[0]!.inputs).toEqual([csrfField, codeInput("twofactor-code", " autofocus"), remember])
    expect(html).toContain('<label for="twofactor-remember">Don’t ask again on this device for 30 days</label>')
    expect(challenge({ rememberFor: 86_400 })).toContain("for 1 day</label>")
    expect(challenge({ rememberFor: 3600 })).toContain("for 1 hour</label>")
    expect(challenge({ rememberFor: 90 * 60 })).toContain("for 1 hour</label>")
    expect(challenge({ rememberFor: 600 })).toContain("for 10 minutes</label>")
    expect(challenge({ rememberFor: 30 * 86_400 }, translator("de", texts))).toContain("Auf diesem Gerät 30 Tage lang nicht mehr fragen")
    expect(challenge({ rememberFor: 0 })).not.toContain('name="remember"')
  })

  it("by email: says a code was sent (without the address), offers a new one, and shows the status after sending", () => {
    const resendAction = `${origin}/auth/two-factor/email`
    const quiet = challenge({ method: "email", resendAction })
    expect(quiet).toContain('<p class="lead">Enter the code we sent to your email address.</p>')
    expect(quiet).not.toContain('role="status"')
    expect(forms(quiet)).toEqual([
      { action: `${origin}/auth/two-factor`, inputs: [csrfField, codeInput("twofactor-code", " autofocus")], buttons: ["Continue"] },
      { action: resendAction, inputs: [csrfField], buttons: ["Send me a new code"] },
    ])
    const sent = challenge({ method: "email", resendAction, sent: true })
    expect(sent).toContain('<div class="notice" role="status">We’ve sent you a code by email. It can take a minute to arrive.</div>')
    // The TOTP method has no code to send.
    expect(challenge({ method: "totp", resendAction, sent: true })).not.toMatch(/role="status"|Send me a new code/)
  })

  it("takes a recovery code instead: its own field and hint, and a link back to the code form", () => {
    const html = challenge({ mode: "recovery", rememberFor: 30 * 86_400 })
    expect(html).toContain("Enter one of the recovery codes you saved")
    expect(forms(html)).toEqual([
      {
        action: `${origin}/auth/two-factor`,
        inputs: [
          csrfField,
          '<input id="twofactor-recovery-code" name="recoveryCode" type="text" autocomplete="off" autocapitalize="none" spellcheck="false" required autofocus aria-describedby="twofactor-recovery-hint">',
          '<input id="twofactor-remember" name="remember" type="checkbox" value="1">',
        ],
        buttons: ["Continue"],
      },
    ])
    expect(html).toContain('<label for="twofactor-recovery-code">Recovery code</label>')
    expect(html).toContain('<p class="hint" id="twofactor-recovery-hint">It looks like xxxxx-xxxxx.</p>')
    expect(html).toContain(`<a href="${origin}/auth/two-factor">Use a code from your authenticator app</a>`)
    expect(html).not.toContain("Use a recovery code instead")
    expect(html).not.toContain('autocomplete="one-time-code"')
    const email = challenge({ mode: "recovery", method: "email", resendAction: `${origin}/auth/two-factor/email`, sent: true })
    expect(email).toContain(">Use a code sent by email</a>")
    expect(email).not.toMatch(/Send me a new code|role="status"/)
  })

  it("explains each error, with the wait when it is known, and marks the field invalid after a wrong code", () => {
    const alert = (html: string) => /<div class="alert" role="alert">([^<]*)<\/div>/.exec(html)?.[1]
    expect(alert(challenge({ error: "InvalidCode" }))).toBe("That code is not right. Check it and try again.")
    expect(challenge({ error: "InvalidCode" })).toContain(codeInput("twofactor-code", ' autofocus aria-invalid="true"'))
    expect(challenge({ error: "InvalidCode", mode: "recovery" })).toContain('aria-describedby="twofactor-recovery-hint" aria-invalid="true">')
    expect(challenge({ error: "TooManyAttempts" })).not.toContain("aria-invalid")
    expect(alert(challenge({ error: "TooManyAttempts" }))).toBe("Too many wrong codes. Wait a little, then try again.")
    expect(alert(challenge({ error: "TooManyAttempts", retryAfter: 281 }))).toBe("Too many wrong codes. Try again in 5 minutes.")
    expect(alert(challenge({ error: "TooManyAttempts", retryAfter: 30 }))).toBe("Too many wrong codes. Try again in 30 seconds.")
    expect(alert(challenge({ error: "TooManyAttempts", retryAfter: 5400 }))).toBe("Too many wrong codes. Try again in 2 hours.")
    expect(alert(challenge({ error: "TooManyAttempts", retryAfter: 60 }, translator("ja", texts)))).toBe("間違ったコードが多すぎます。1 分後にもう一度お試しください。")
    for (const retryAfter of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(alert(challenge({ error: "TooManyAttempts", retryAfter })), String(retryAfter)).toBe("Too many wrong codes. Wait a little, then try again.")
    }
    expect(alert(challenge({ error: "SendFailed" }))).toBe("We couldn’t send the code. Try again in a moment.")
    // Unknown reasons, the wait's own key and prototype names get the default text, never themselves.
    for (const error of ["Nope", "TooManyAttempts.wait", "constructor", "__proto__", "Default"]) {
      expect(alert(challenge({ error })), error).toBe("Something went wrong. Please try again.")
    }
  })
})

describe("the settings page", () => {
  it("sets up an app: the QR code of the URI, the key in groups of four, the URI as a link, and the confirming code", () => {
    const html = setup()
    expect(html).toContain("<h1>Set up two-factor authentication</h1>")
    expect(html).toContain('<svg xmlns="http://www.w3.org/2000/svg" class="qr" role="img" aria-label="QR code to add your account to an authenticator app"')
    expect(html).toContain('<p id="twofactor-secret-label">Can’t scan it? Type this key into the app:</p>')
    expect(html).toContain('<code id="twofactor-secret">GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ</code>')
    expect(html).toContain(`<a href="${fixtureUri.replace(/&/g, "&amp;")}">Open in an authenticator app on this device</a>`)
    expect(forms(html)).toEqual([
      {
        action: `${origin}/auth/two-factor/setup`,
        inputs: [csrfField, '<input type="hidden" name="method" value="totp">', codeInput("twofactor-setup-code")],
        buttons: ["Turn on two-factor authentication"],
      },
    ])
    expect(html).toContain('<label for="twofactor-setup-code">Code from the app</label>')
    expect(html).toContain(`<a href="${origin}/account">Back</a>`)
    // Already grouped, or spaced otherwise: the same groups.
    expect(setup({ state: { ...newState, secret: "GEZD GNBV  GY3TQOJQ GEZDGNBVGY3TQOJQ" } })).toContain(">GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ</code>")
  })

  it("links only an otpauth: URI", () => {
    expect(setup({ state: { ...newState, uri: "javascript:alert(1)" } })).not.toMatch(/href="javascript|Open in an authenticator app/)
    expect(setup({ state: { ...newState, uri: "https://evil.example/otpauth://totp" } })).not.toContain("Open in an authenticator app")
  })

  it("offers codes by email instead, as a form of its own without a code field", () => {
    const found = forms(setup({ state: { ...newState, emailOffered: true } }))
    expect(found[1]).toEqual({
      action: `${origin}/auth/two-factor/setup`,
      inputs: [csrfField, '<input type="hidden" name="method" value="email">'],
      buttons: ["Use codes sent by email"],
    })
    expect(setup()).not.toContain('value="email"')
  })

  it("once on: since when (in the page's language), codes left, and forms that ask for a current code", () => {
    const html = setup({ state: enabledState })
    expect(html).toContain("<h1>Two-factor authentication</h1>")
    expect(html).toContain('<p class="lead">On since January 2, 2025, with an authenticator app.</p>')
    expect(html).toContain("<p>Recovery codes left: 7</p>")
    expect(forms(html)).toEqual([
      { action: enabledState.regenerateAction, inputs: [csrfField, codeInput("twofactor-regenerate-code")], buttons: ["Make new recovery codes"] },
      { action: enabledState.disableAction, inputs: [csrfField, codeInput("twofactor-disable-code")], buttons: ["Turn it off"] },
    ])
    expect(html).toContain('<label for="twofactor-disable-code">Current code from your authenticator app</label>')
    expect(html).toContain(`<a href="${origin}/account">Done</a>`)
    expect(html).not.toContain("<svg")
    expect(setup({ state: enabledState }, translator("ja", texts))).toContain("2025年1月2日から有効（認証アプリ）。")
    expect(setup({ state: enabledState }, translator("de", texts))).toContain("Eingeschaltet seit 2. Januar 2025")
  })

  it("once on by email: no code field (a recent sign-in stands in for it)", () => {
    const html = setup({ state: { ...enabledState, method: "email", codeNeeded: false } })
    expect(html).toContain("On since January 2, 2025, with codes sent by email.")
    expect(forms(html).map((f) => f.inputs)).toEqual([[csrfField], [csrfField]])
  })

  it("shows the known notices as status lines, and nothing for another value; errors as on the challenge", () => {
    expect(setup({ state: enabledState, notice: "enabled" })).toContain('<div class="notice" role="status">Two-factor authentication is on.</div>')
    expect(setup({ notice: "disabled" })).toContain('<div class="notice" role="status">Two-factor authentication is off.</div>')
    for (const notice of ["other", "constructor", "toString", "__proto__", ""]) expect(setup({ notice }), notice).not.toContain('role="status"')
    expect(setup({ error: "InvalidCode" })).toContain('<div class="alert" role="alert">That code is not right. Check it and try again.</div>')
    expect(setup({ error: "InvalidCode" })).toContain(codeInput("twofactor-setup-code", ' aria-invalid="true"'))
    expect(setup({ error: "TooManyAttempts" })).toContain(">Too many wrong codes. Wait a little, then try again.</div>")
    expect(setup({ error: "Default" })).toContain('<div class="alert" role="alert">Something went wrong. Please try again.</div>')
  })
})

describe("the recovery codes page", () => {
  it("lists each code, puts them all in a read-only box to copy, says they show once, and is never cached", () => {
    const res = recoveryCodesPage({ codes: fixtureCodes, continueUrl: `${origin}/account`, theme: defaultTheme }, en)
    const html = body(res)
    expect(html).toContain("<h1>Save your recovery codes</h1>")
    expect([...html.matchAll(/<li><code>([^<]*)<\/code><\/li>/g)].map((m) => m[1])).toEqual(fixtureCodes)
    expect(html).toContain('<label for="twofactor-codes">All the codes, to copy</label>')
    expect(html).toContain(`<textarea id="twofactor-codes" readonly rows="5" spellcheck="false">${fixtureCodes.join("\n")}</textarea>`)
    expect(html).toContain("each of these lets you sign in once")
    expect(html).toContain("They are shown only this once.")
    expect(html).toContain(`<a href="${origin}/account">I have saved them</a>`)
    expect(html).not.toContain("<form")
    expect(res.headers).toMatchObject({ "Cache-Control": "private, no-cache, no-store", Pragma: "no-cache", Expires: "0" })
  })
})

describe("the re-authentication page", () => {
  it("asks for a fresh code, posting the CSRF token and the callback URL, with a way to sign in again instead", () => {
    const html = reauth()
    expect(html).toContain("<h1>Confirm it’s you</h1>")
    expect(html).toContain('<p class="lead">Enter the code from your authenticator app to continue.</p>')
    expect(forms(html)).toEqual([
      {
        action: `${origin}/auth/reauthenticate`,
        inputs: [csrfField, `<input type="hidden" name="callbackUrl" value="${origin}/account/delete">`, codeInput("reauth-code", " autofocus")],
        buttons: ["Confirm"],
      },
    ])
    expect(html).toContain(`<a href="${origin}/auth/signin?callbackUrl=%2Faccount%2Fdelete">Sign in again instead</a>`)
    expect(html).not.toContain("recoveryCode")
  })

  it("explains its errors and never echoes an unknown one", () => {
    expect(reauth({ error: "InvalidCode" })).toContain('<div class="alert" role="alert">That code is not right. Check it and try again.</div>')
    expect(reauth({ error: "InvalidCode" })).toContain(codeInput("reauth-code", ' autofocus aria-invalid="true"'))
    expect(reauth({ error: "TooManyAttempts" })).toContain(">Too many wrong codes. Wait a little, then try again.</div>")
    expect(reauth({ error: "SendFailed" })).toContain(">Something went wrong. Please try again.</div>")
  })
})

const script = "<script>window.__xss=1</script>"
const breakout = `"><img src=x onerror="window.__xss=1">`
const single = `'><svg onload='window.__xss=1'>`
const payload = `${script}${breakout}${single}`

/** No markup from any payload made it into the page as markup. */
function expectInert(html: string) {
  expect(html).not.toContain("<script")
  expect(html).not.toContain("<img src=x")
  expect(html).not.toContain("<svg onload")
  const attributeNames = [...html.matchAll(/<[a-z][^>]*>/gi)].map((tag) => tag[0].replace(/="[^"]*"/g, "")).join(" ")
  expect(attributeNames).not.toMatch(/\son[a-z]+/i)
}

describe("escaping and headers", () => {
  it("escapes URLs, tokens, the secret, the URI and the codes", () => {
    const url = `${origin}/${payload}`
    const pages = [
      challenge({ action: url, csrfToken: payload, codeUrl: url, recoveryUrl: url, signInUrl: url, resendAction: url, method: "email", error: payload }),
      challenge({ mode: "recovery", codeUrl: url, csrfToken: payload }),
      setup({ csrfToken: payload, backUrl: url, error: payload, notice: payload, state: { ...newState, action: url, secret: payload, uri: `otpauth://totp/${payload}`, emailOffered: true } }),
      setup({ csrfToken: payload, state: { ...enabledState, regenerateAction: url, disableAction: url } }),
      body(recoveryCodesPage({ codes: [payload, `${breakout}\n</textarea>${script}`], continueUrl: url, theme: defaultTheme }, en)),
      reauth({ action: url, csrfToken: payload, callbackUrl: url, signInUrl: url, error: payload }),
    ]
    for (const html of pages) {
      expectInert(html)
      expect(html).not.toContain("</textarea><")
    }
    expect(pages[0]).toContain(`value="${payload.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;")}"`)
  })

  it("every page: a strict CSP, no script, no inline style or handler, never cached, framing denied", () => {
    for (const c of twoFactorCases) {
      const res = c.render(origin, en)
      const html = body(res)
      expect(res.status ?? 200, c.name).toBe(200)
      expect(res.headers!["Content-Security-Policy"], c.name).toMatch(/^default-src 'none'; style-src 'nonce-[\w-]+'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'$/)
      expect(res.headers!["Cache-Control"], c.name).toContain("no-store")
      expect(res.headers!["X-Frame-Options"], c.name).toBe("DENY")
      expect(res.headers!["Referrer-Policy"], c.name).toBe("strict-origin")
      expect(html, c.name).not.toMatch(/<script|\sstyle=|\son[a-z]+=|javascript:/i)
      expect(html.match(/<h1>/g), c.name).toHaveLength(1)
    }
  })
})

describe("the QR code", () => {
  /** The modules the SVG draws dark: the path's runs, on the grid its viewBox sets. */
  function modulesOf(svg: string): boolean[][] {
    const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)![1])
    const grid = Array.from({ length: size }, () => Array<boolean>(size).fill(false))
    const d = /<path fill="#000000" d="([^"]*)"\/>/.exec(svg)![1]!
    const runs = [...d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)]
    // The path is nothing but runs.
    expect(runs.map((m) => m[0]).join("")).toBe(d)
    for (const [, x, y, n] of runs) for (let i = 0; i < Number(n); i++) grid[Number(y)]![Number(x) + i] = true
    return grid
  }

  /** The grid as an RGB image, `scale` pixels a module, for the decoder. */
  function image(grid: boolean[][], scale = 4) {
    const width = grid.length * scale
    const data = new Uint8Array(width * width * 3)
    for (let y = 0; y < width; y++) for (let x = 0; x < width; x++) data.fill(grid[Math.floor(y / scale)]![Math.floor(x / scale)] ? 0 : 255, (y * width + x) * 3, (y * width + x) * 3 + 3)
    return { width, height: width, data }
  }

  it("reads back as the text, dark on white, with a quiet zone of four modules", () => {
    for (const text of [fixtureUri, "otpauth://totp/x?secret=AB", `otpauth://totp/${"long%20name".repeat(20)}?secret=${fixtureSecret}`]) {
      const svg = qrSvg(text, "QR").value
      const grid = modulesOf(svg)
      expect(decodeQR(image(grid)), text).toBe(text)
      const size = grid.length
      const border = (i: number) => i < 4 || i >= size - 4
      for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (border(x) || border(y)) expect(grid[y]![x], `${x},${y}`).toBe(false)
      // The finder pattern's corner module, just inside the quiet zone.
      expect(grid[4]![4]).toBe(true)
      expect(svg).toContain(`<rect width="${size}" height="${size}" fill="#ffffff"/>`)
      expect(svg).toContain(`width="${size * 4}" height="${size * 4}"`)
    }
  })

  it("is an image named by its label (escaped), with no style attribute", () => {
    const svg = qrSvg("otpauth://totp/x?secret=AB&issuer=A", `Code "x" <y>`).value
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" class="qr" role="img" aria-label="Code &quot;x&quot; &lt;y&gt;" viewBox="0 0 \d+ \d+"/)
    expect(svg).not.toMatch(/style=|<script|<title/)
    expect(svg.match(/<path /g)).toHaveLength(1)
  })
})

describe("every language", () => {
  const english = builtInCatalogues.get("en")!
  const keys = Object.keys(english) as (keyof Messages)[]
  const ours = keys.filter((key) => /^(twofactor|reauth)\./.test(key) || key.startsWith("signin.error.TwoFactor"))

  /** The text a visitor reads: without the style element and tags, entities decoded. */
  function visibleText(html: string): string {
    return html
      .replace(/<style[\s\S]*?<\/style>/g, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&")
  }

  it("has each of these messages, translated", () => {
    expect(ours.length).toBe(56)
    for (const [lang, catalogue] of builtInCatalogues) {
      for (const key of ours) {
        expect(catalogue[key]?.trim(), `${lang} ${key}`).toBeTruthy()
        if (lang !== "en") expect(catalogue[key], `${lang} ${key}`).not.toBe(english[key])
      }
    }
  })

  it("renders each page in each language: lang, heading, no raw key, no unfilled placeholder, no English left over", () => {
    const sentences = keys.map((key) => english[key].split(/\{\w+\}/)[0]!).filter((text) => text.length > 12)
    for (const [lang, catalogue] of builtInCatalogues) {
      const t = translator(lang, texts)
      for (const c of twoFactorCases) {
        const res = c.render(origin, t)
        const html = body(res)
        expect(res.headers!["Content-Language"]).toBe(lang)
        expect(html, `${lang} ${c.name}`).toContain(`<html lang="${lang}"`)
        expect(html, `${lang} ${c.name}`).toContain(`<h1>${catalogue[c.headingKey]}</h1>`)
        if (lang === "en" && c.shows) expect(visibleText(html), c.name).toContain(c.shows)
        const text = visibleText(html)
        for (const key of keys) expect(text, `${lang} ${c.name} shows the key ${key}`).not.toContain(key)
        expect(text, `${lang} ${c.name}`).not.toMatch(/\{\w+\}|undefined|NaN/)
        if (lang !== "en") for (const sentence of sentences) expect(text, `${lang} ${c.name}`).not.toContain(sentence)
      }
    }
  })

  it("has the sign-in page's messages for an expired or locked two-factor sign-in", () => {
    expect(en.t("signin.error.TwoFactorExpired")).toBe("Your sign-in took too long or was already used: sign in again.")
    expect(en.t("signin.error.TwoFactorLocked")).toBe("Too many wrong codes: sign in again.")
  })
})
