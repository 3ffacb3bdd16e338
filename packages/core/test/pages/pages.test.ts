/**
 * What each built-in page shows and answers (the password provider's pages included), and how the
 * `pages` option replaces them.
 */
import { describe, expect, it, vi } from "vitest"
import type { AuthConfig } from "@sesame/core"
import { CookieJar, jwtConfig, origin, send, signInAlice } from "../helpers.js"
import { credentialsProvider, emailProvider, oauthProvider, oidcProvider, passwordLinks, passwordProvider, passwordSetup, renderSignIn, svgLogo } from "./fixtures.js"

const authUrl = `${origin}/auth`

/** The forms of a page, each with its action and its inputs. */
function forms(html: string): { action: string; inputs: string[] }[] {
  return [...html.matchAll(/<form action="([^"]*)" method="POST"[^>]*>([\s\S]*?)<\/form>/g)].map((m) => ({
    action: m[1]!,
    inputs: [...m[2]!.matchAll(/<input [^>]*>/g)].map((i) => i[0]),
  }))
}

describe("sign-in page", () => {
  it("has a section per provider kind, each form with the CSRF token and callback URL", async () => {
    const html = await renderSignIn(new Request(`${origin}/?callbackUrl=${encodeURIComponent(`${origin}/next`)}`), { authUrl }).text()
    const found = forms(html)
    // The address is asked once for the password, email and passkey providers: one form, whose
    // buttons post it to the password callback or the email sign-in.
    expect(found.map((f) => f.action)).toEqual([
      `${authUrl}/signin/octo`,
      `${authUrl}/signin/acme-id`,
      `${authUrl}/callback/password`,
      `${authUrl}/callback/credentials`,
      `${authUrl}/callback/passkey`,
    ])
    expect(html).toContain(`<button type="submit" class="primary" formaction="${authUrl}/callback/password">Sign in with Password</button>`)
    expect(html).toContain(`<button type="submit" formaction="${authUrl}/signin/email">Sign in with Email</button>`)
    for (const form of found) {
      expect(form.inputs).toContain(`<input type="hidden" name="csrfToken" value="${"f".repeat(64)}">`)
      expect(form.inputs).toContain(`<input type="hidden" name="callbackUrl" value="${origin}/next">`)
    }
    // The passkey form needs its script: it is hidden, with the divider before it, until the script shows it.
    expect(html).toContain(`<div data-sesame-passkey-section hidden><p class="divider">or</p><form action="${authUrl}/callback/passkey"`)
  })

  it("puts each form that asks for a password under a heading naming its provider when there are two or more, and only then", async () => {
    const headings = (html: string) => [...html.matchAll(/<section class="titled" aria-labelledby="([^"]+)"><h2 id="\1">([^<]*)<\/h2>/g)].map((m) => m[2])
    const page = async (providers: Parameters<typeof renderSignIn>[1]["providers"]) => (await renderSignIn(new Request(origin), { authUrl, providers }).text())
    // Credentials beside Password: two email-and-password forms that looked alike but for the buttons' last word.
    const both = await page([credentialsProvider("Staff account"), passwordProvider()])
    expect(headings(both)).toEqual(["Staff account", "Password"])
    expect(both).toMatch(/<section class="titled" aria-labelledby="provider-0-title"><h2 id="provider-0-title">Staff account<\/h2>\n<form action="[^"]*\/callback\/credentials"/)
    // The password form shared with the email provider is titled by the password provider.
    expect(headings(await page([passwordProvider(), emailProvider(), credentialsProvider("Staff account")]))).toEqual(["Password", "Staff account"])
    // One password form, or a credentials form without a password field beside Password: no heading.
    const pin = { ...credentialsProvider("Kiosk"), credentials: { badge: { label: "Badge number" } } }
    for (const providers of [[credentialsProvider()], [passwordProvider(), emailProvider()], [pin, passwordProvider()], [oauthProvider(), passwordProvider()]]) {
      expect(headings(await page(providers))).toEqual([])
    }
    // The name is escaped like every other text.
    expect(headings(await page([credentialsProvider("<b>Staff</b>"), passwordProvider()]))).toEqual(["&lt;b&gt;Staff&lt;/b&gt;", "Password"])
  })

  it("shows OAuth buttons with name, brand colour and logo, grouped, with a divider before each other section", async () => {
    const html = await renderSignIn(new Request(origin), { authUrl }).text()
    expect(html).toContain(`<button type="submit" class="provider-0"><img src="${svgLogo}" alt="" width="20" height="20"><span>Sign in with Octo</span></button>`)
    expect(html).toContain('<button type="submit" class="provider-1"><span>Sign in with Acme ID</span></button>')
    expect(html).toContain(".provider-0{background:#24292f;border-color:#24292f;color:#ffffff}")
    expect(html).not.toContain(".provider-1{")
    // Two shown, and one hidden with the passkey section.
    expect(html.match(/<p class="divider">or<\/p>/g)).toHaveLength(3)
    expect(html.indexOf('<div class="buttons">')).toBeLessThan(html.indexOf("/signin/acme-id"))
    expect(html.indexOf("/signin/acme-id")).toBeLessThan(html.indexOf('class="divider"'))
  })

  it("still honours the deprecated bg and text styles, and derives a readable text colour", async () => {
    const providers = [
      oauthProvider({ id: "old", style: { bg: "#ffffff", text: "#000000" } }),
      oauthProvider({ id: "light", style: { brandColor: "#f5c518" } }),
      oauthProvider({ id: "both", style: { brandColor: "#123456", bg: "#ffffff" } }),
    ]
    const html = await renderSignIn(new Request(origin), { authUrl, providers }).text()
    expect(html).toContain(".provider-0{background:#ffffff;border-color:#ffffff;color:#000000}")
    expect(html).toContain(".provider-1{background:#f5c518;border-color:#f5c518;color:#111318}")
    expect(html).toContain(".provider-2{background:#123456;border-color:#123456;color:#ffffff}")
  })

  it("labels the email field, prefills it from ?email= and posts it to signin/:provider", async () => {
    const html = await renderSignIn(new Request(`${origin}/?email=ada%40example.com`), { authUrl, providers: [emailProvider({ name: "Magic link" })] }).text()
    expect(html).toContain('<label for="provider-0-email">Email address</label>')
    expect(html).toContain(
      '<input id="provider-0-email" name="email" type="email" autocomplete="email" required placeholder="you@example.com" value="ada@example.com">',
    )
    expect(html).toContain('<button type="submit" class="primary">Sign in with Magic link</button>')
    expect(forms(html)[0]!.action).toBe(`${authUrl}/signin/email`)
  })

  it("generates the credentials form from the declared fields", async () => {
    const config = jwtConfig({
      providers: [
        {
          ...credentialsProvider("Staff account"),
          credentials: {
            email: { label: "Work email", type: "email", placeholder: "you@corp.example", autocomplete: "username", required: true },
            pin: { label: "PIN", type: "password", autocomplete: "one-time-code" },
            team: { type: "weird", value: "blue" },
          },
        },
      ],
    })
    const html = await (await send(config, "/auth/signin")).text()
    expect(html).toContain('<label for="provider-0-field-0">Work email</label>')
    expect(html).toContain('<input id="provider-0-field-0" name="email" type="email" placeholder="you@corp.example" autocomplete="username" required>')
    expect(html).toContain('<label for="provider-0-field-1">PIN</label>')
    expect(html).toContain('<input id="provider-0-field-1" name="pin" type="password" autocomplete="one-time-code">')
    // No label: the field's name; an unknown input type: text.
    expect(html).toContain('<label for="provider-0-field-2">team</label>')
    expect(html).toContain('<input id="provider-0-field-2" name="team" type="text" value="blue">')
    expect(html).toContain("Sign in with Staff account")
  })

  it("shows a message for each error code in an alert, and the default for anything else", async () => {
    const messages: Record<string, string> = {
      CredentialsSignin: "We couldn’t sign you in with those details.",
      OAuthAccountNotLinked: "An account with this email address already exists.",
      OAuthCallbackError: "The sign-in service reported a problem.",
      AccessDenied: "This account is not allowed to sign in.",
      Verification: "This sign-in link is no longer valid",
      MissingCSRF: "The form expired, or your browser blocked its cookie.",
      SessionRequired: "You need to sign in to see that page.",
      EmailSignin: "We couldn’t send the sign-in email.",
      Unheard: "Something went wrong while signing in.",
      "%3Cb%3E": "Something went wrong while signing in.",
    }
    for (const [code, message] of Object.entries(messages)) {
      const html = await (await send(jwtConfig(), `/auth/signin?error=${code}`)).text()
      expect(html, code).toMatch(new RegExp(`<div class="alert" role="alert">${message.replace(/[.?]/g, "\\$&")}`))
      expect(html).not.toContain("Unheard")
    }
    expect(await (await send(jwtConfig(), "/auth/signin")).text()).not.toContain('role="alert"')
  })

  it("says so when no provider is configured", async () => {
    const html = await (await send(jwtConfig({ providers: [] }), "/auth/signin")).text()
    expect(html).toContain('<p class="lead">No sign-in method is set up for this site.</p>')
    expect(html).not.toContain("<form")
  })

  it("renders OIDC and OAuth buttons without a style as neutral buttons", async () => {
    const html = await renderSignIn(new Request(origin), { authUrl, providers: [oidcProvider({ style: { brandColor: "not a colour", logo: "https://cdn.example/x.svg" } })] }).text()
    expect(html).toContain('<button type="submit" class="provider-0"><span>Sign in with Acme ID</span></button>')
    expect(html).not.toContain(".provider-0{")
    expect(html).not.toContain("cdn.example")
  })
})

describe("sign-out, error and verify-request pages", () => {
  it("sign-out posts the CSRF token and callback URL, and offers a way back without signing out", async () => {
    const jar = new CookieJar()
    const html = await (await send(jwtConfig(), "/auth/signout?callbackUrl=%2Faccount", { jar })).text()
    const [form] = forms(html)
    expect(form!.action).toBe(`${authUrl}/signout`)
    expect(form!.inputs).toEqual([
      `<input type="hidden" name="csrfToken" value="${jar.get("sesame.csrf-token")!.split("|")[0]}">`,
      `<input type="hidden" name="callbackUrl" value="${origin}/account">`,
    ])
    expect(html).toContain(`<a href="${origin}/account">Stay signed in</a>`)
    expect(html).toContain("<title>Sign out</title>")
  })

  it("error page: status, title, message and a link to the sign-in page for each code", async () => {
    const cases: [string, number, string, string][] = [
      ["Configuration", 500, "Server error", "The server is not set up correctly"],
      ["AccessDenied", 403, "Access denied", "This account is not allowed to sign in here."],
      ["Verification", 403, "Unable to sign in", "This sign-in link is no longer valid"],
      ["OAuthCallbackError", 200, "Error", "Something went wrong. Please try again."],
      ["<script>", 200, "Error", "Something went wrong. Please try again."],
    ]
    for (const [code, status, heading, message] of cases) {
      const res = await send(jwtConfig(), `/auth/error?error=${encodeURIComponent(code)}`)
      expect(res.status, code).toBe(status)
      const html = await res.text()
      expect(html).toContain(`<title>${heading}</title>`)
      expect(html).toContain(`<h1>${heading}</h1>`)
      expect(html).toContain(message)
      expect(html).toContain(`<a href="${authUrl}/signin">Go to sign-in</a>`)
    }
    const noCode = await send(jwtConfig(), "/auth/error")
    expect(noCode.status).toBe(200)
  })

  it("error page links to the configured sign-in page and base path", async () => {
    const custom = await (await send(jwtConfig({ pages: { signIn: "/login" } }), "/auth/error?error=AccessDenied")).text()
    expect(custom).toContain(`<a href="${origin}/login">`)
    const based = await (await send(jwtConfig({ basePath: "/api/auth" }), "/api/auth/error?error=Verification")).text()
    expect(based).toContain(`<a href="${origin}/api/auth/signin">`)
  })

  it("verify-request names the site's host and links back to it", async () => {
    const html = await (await send(jwtConfig(), "/auth/verify-request?provider=email&type=email")).text()
    expect(html).toContain("<h1>Check your email</h1>")
    expect(html).toContain(`<a href="${origin}">Back to localhost:3000</a>`)
  })
})

describe("the password provider's pages", () => {
  const page = async (config: AuthConfig, path: string, jar = new CookieJar()) => {
    const res = await send(config, path, { jar })
    return { status: res.status, html: await res.text(), csrf: jar.get("sesame.csrf-token")?.split("|")[0] }
  }

  it("sign-up: a form posting name, address and a new password with the CSRF token and callback URL to signup/:provider", async () => {
    const { config } = passwordSetup()
    const { status, html, csrf } = await page(config, "/auth/signup?callbackUrl=%2Fwelcome")
    expect(status).toBe(200)
    expect(html).toContain("<title>Create an account</title>")
    const [form] = forms(html)
    expect(form!.action).toBe(`${authUrl}/signup/password`)
    expect(form!.inputs).toEqual([
      `<input type="hidden" name="csrfToken" value="${csrf}">`,
      `<input type="hidden" name="callbackUrl" value="${origin}/welcome">`,
      '<input id="signup-name" name="name" type="text" autocomplete="name" maxlength="200" value="">',
      '<input id="signup-email" name="email" type="email" autocomplete="email" required placeholder="you@example.com" value="">',
      '<input id="signup-password" name="password" type="password" autocomplete="new-password" required minlength="8" aria-describedby="signup-password-hint">',
    ])
    expect(html).toContain('<p class="hint" id="signup-password-hint">At least 8 characters.')
    expect(html).toContain(`<a href="${authUrl}/signin">Already have an account? Sign in</a>`)
    expect(html).not.toContain('role="alert"')
  })

  it("sign-up states the policy's own minimum length, in the hint and on the field", async () => {
    const { config } = passwordSetup("/auth", { policy: { minLength: 15 } })
    const { html } = await page(config, "/auth/signup")
    expect(html).toContain('minlength="15"')
    expect(html).toContain("At least 15 characters.")
  })

  it("sign-up after a refusal: the reason in an alert, the address kept, the refused field marked invalid", async () => {
    const { config } = passwordSetup()
    const tooShort = (await page(config, "/auth/signup?error=too-short&email=ada%40example.com")).html
    expect(tooShort).toContain('<div class="alert" role="alert">That password is too short.</div>')
    expect(tooShort).toContain('autocomplete="email" required placeholder="you@example.com" value="ada@example.com">')
    expect(tooShort).toMatch(/id="signup-password"[^>]* aria-invalid="true">/)
    const badAddress = (await page(config, "/auth/signup?error=invalid-email&email=ada%40%40example.com")).html
    expect(badAddress).toContain('<div class="alert" role="alert">Enter one valid email address.</div>')
    expect(badAddress).toMatch(/id="signup-email"[^>]* aria-invalid="true">/)
    expect(badAddress).not.toMatch(/id="signup-password"[^>]* aria-invalid/)
  })

  it("sign-up and forgotten password with ?sent=1: “check your email” as a status, no form, a link back to sign-in", async () => {
    const { config } = passwordSetup()
    for (const [path, body] of [
      ["/auth/signup?sent=1", "We’ve sent an email to that address. Open the link in it to continue; you can close this page."],
      ["/auth/forgot-password?sent=1", "We’ve sent an email to that address. Open the link in it to choose a new password; you can close this page."],
    ] as const) {
      const { status, html } = await page(config, path)
      expect(status).toBe(200)
      expect(html).toContain("<h1>Check your email</h1>")
      expect(html).toContain(`<p class="lead" role="status">${body}</p>`)
      expect(html).not.toContain("<form")
      expect(html).toContain(`<a href="${authUrl}/signin">Back to sign-in</a>`)
    }
  })

  it("forgotten password: one address field posting to forgot-password/:provider, prefilled from ?email=", async () => {
    const { config } = passwordSetup()
    const { status, html, csrf } = await page(config, "/auth/forgot-password?email=ada%40example.com")
    expect(status).toBe(200)
    expect(html).toContain("<h1>Reset your password</h1>")
    const [form] = forms(html)
    expect(form!.action).toBe(`${authUrl}/forgot-password/password`)
    expect(form!.inputs).toEqual([
      `<input type="hidden" name="csrfToken" value="${csrf}">`,
      `<input type="hidden" name="callbackUrl" value="${origin}/">`,
      '<input id="forgot-email" name="email" type="email" autocomplete="email" required placeholder="you@example.com" value="ada@example.com">',
    ])
    expect(html).toContain(">Email me a link</button>")
  })

  it("the reset link's page: token and address posted back, the address for password managers, a new-password field", async () => {
    const setup = passwordSetup()
    const { reset } = await passwordLinks(setup, origin, "ada@example.com")
    const { status, html, csrf } = await page(setup.config, reset)
    expect(status).toBe(200)
    expect(html).toContain("<h1>Choose a new password</h1>")
    expect(html).toContain('<p class="lead">For the account ada@example.com.</p>')
    const [form] = forms(html)
    const token = new URL(reset, origin).searchParams.get("token")!
    expect(form!.action).toBe(`${authUrl}/reset-password/password`)
    expect(form!.inputs).toEqual([
      `<input type="hidden" name="csrfToken" value="${csrf}">`,
      `<input type="hidden" name="callbackUrl" value="${new URL(reset, origin).searchParams.get("callbackUrl")}">`,
      `<input type="hidden" name="token" value="${token}">`,
      '<input type="hidden" name="email" value="ada@example.com">',
      '<input type="email" name="username" autocomplete="username" value="ada@example.com" hidden readonly tabindex="-1" aria-hidden="true">',
      '<input id="reset-password" name="password" type="password" autocomplete="new-password" required minlength="8" aria-describedby="reset-password-hint">',
    ])
    expect(html).toContain("Saving it signs your account out on every other device.")
    const breached = (await page(setup.config, `${reset}&error=breached`)).html
    expect(breached).toContain('<div class="alert" role="alert">This password has appeared in a data breach')
    expect(breached).toMatch(/id="reset-password"[^>]* aria-invalid="true">/)
  })

  it("the confirmation link's page: the account's password, posted with token, address and callback URL to verify-email/:provider", async () => {
    const setup = passwordSetup()
    const { verify } = await passwordLinks(setup, origin, "ada@example.com")
    const { status, html, csrf } = await page(setup.config, verify)
    expect(status).toBe(200)
    expect(html).toContain("<h1>Confirm your email address</h1>")
    expect(html).toContain('<p class="lead">To confirm ada@example.com for your account on localhost:3000, enter the password you chose when you signed up.</p>')
    const [form] = forms(html)
    expect(form!.action).toBe(`${authUrl}/verify-email/password`)
    expect(form!.inputs).toEqual([
      `<input type="hidden" name="csrfToken" value="${csrf}">`,
      `<input type="hidden" name="token" value="${new URL(verify, origin).searchParams.get("token")}">`,
      '<input type="hidden" name="email" value="ada@example.com">',
      `<input type="hidden" name="callbackUrl" value="${origin}/">`,
      '<input type="email" name="username" autocomplete="username" value="ada@example.com" hidden readonly tabindex="-1" aria-hidden="true">',
      '<input id="confirm-password" name="password" type="password" autocomplete="current-password" required autofocus>',
    ])
    expect(html).toContain('<button type="submit" class="primary">Confirm and sign in</button>')
    expect(html).not.toContain('role="alert"')
    const wrong = (await page(setup.config, `${verify}&error=wrong-password`)).html
    expect(wrong).toContain('<div class="alert" role="alert">That password is not right.</div>')
    expect(wrong).toMatch(/id="confirm-password"[^>]* aria-invalid="true">/)
  })

  it("a link's page without its token or address is the Verification error, not a form", async () => {
    const { config } = passwordSetup()
    for (const path of ["/auth/reset-password/password?email=ada%40example.com", "/auth/verify-email/password?token=abc"]) {
      const res = await send(config, path)
      expect(res.headers.get("location"), path).toBe(`${authUrl}/error?error=Verification`)
    }
  })

  it("sign-in: the password section, the notice after a reset, the alert for an unconfirmed address", async () => {
    const { config } = passwordSetup()
    const plain = (await page(config, "/auth/signin")).html
    expect(forms(plain).map((f) => f.action)).toEqual([`${authUrl}/callback/password`])
    expect(plain).toContain(`<a href="${authUrl}/forgot-password?callbackUrl=${encodeURIComponent(`${origin}/`)}">Forgot your password?</a>`)
    expect(plain).toContain(`<a href="${authUrl}/signup?callbackUrl=${encodeURIComponent(`${origin}/`)}">No account yet? Create one</a>`)
    expect(plain).not.toContain('class="notice"')
    const reset = (await page(config, "/auth/signin?notice=PasswordReset")).html
    expect(reset).toContain('<div class="notice" role="status">Your password was changed. Sign in with the new one.</div>')
    expect(reset).not.toContain('role="alert"')
    const unconfirmed = (await page(config, "/auth/signin?error=EmailNotVerified")).html
    expect(unconfirmed).toContain('<div class="alert" role="alert">Confirm your email address first: we’ve sent you a new link. Open it, then sign in.</div>')
  })

  it("never echoes an unknown ?error= or ?notice=: the default message, or no notice at all", async () => {
    const setup = passwordSetup()
    const { reset } = await passwordLinks(setup, origin, "ada@example.com")
    const unknown = ["Unheard", "__proto__", "toString", "<b>bold</b>", "too-short<i>", "Default.x"]
    for (const value of unknown) {
      const error = encodeURIComponent(value)
      for (const path of [`/auth/signup?error=${error}`, `/auth/forgot-password?error=${error}`, `${reset}&error=${error}`]) {
        const { status, html } = await page(setup.config, path)
        expect(status, path).toBe(200)
        expect(html, path).toContain('<div class="alert" role="alert">Something went wrong. Please try again.</div>')
        expect(html, path).not.toContain(value.replace(/</g, "&lt;").replace(/>/g, "&gt;"))
      }
      for (const path of [`/auth/signin?notice=${error}`, `/auth/signin?error=${error}`]) {
        const { status, html } = await page(setup.config, path)
        expect(status, path).toBe(200)
        expect(html, path).not.toContain('class="notice"')
        expect(html, path).not.toContain(value.replace(/</g, "&lt;").replace(/>/g, "&gt;"))
      }
    }
  })

  it("without a password provider, the sign-up and forgotten-password pages are a 404, not a 500", async () => {
    for (const path of ["/auth/signup", "/auth/forgot-password"]) expect((await send(jwtConfig(), path)).status, path).toBe(404)
  })
})

describe("pages option", () => {
  const location = (res: Response) => new URL(res.headers.get("location")!)

  it("redirects to the configured pages, carrying what the built-in page would use", async () => {
    const config = jwtConfig({
      pages: { signIn: "/login", signOut: "/bye", error: "https://help.example/oops", verifyRequest: "/check-mail?from=auth" },
    })
    const signIn = await send(config, "/auth/signin?callbackUrl=%2Fa&error=OAuthAccountNotLinked")
    expect(signIn.status).toBe(302)
    expect(location(signIn).href).toBe(`${origin}/login?callbackUrl=${encodeURIComponent(`${origin}/a`)}&error=OAuthAccountNotLinked`)
    expect(location(await send(config, "/auth/signin?error=%3Cscript%3E")).searchParams.has("error")).toBe(false)

    const signOut = await send(config, "/auth/signout?callbackUrl=%2Fb")
    expect(location(signOut).href).toBe(`${origin}/bye?callbackUrl=${encodeURIComponent(`${origin}/b`)}`)

    expect(location(await send(config, "/auth/error?error=Verification")).href).toBe("https://help.example/oops?error=Verification")
    expect(location(await send(config, "/auth/error?error=%22%3E")).href).toBe("https://help.example/oops?error=Default")

    const verify = await send(config, "/auth/verify-request?provider=email&type=email")
    expect(location(verify).href).toBe(`${origin}/check-mail?from=auth&provider=email&type=email`)
  })

  it("sends failed flows to the configured pages", async () => {
    const config = jwtConfig({ pages: { signIn: "/login", error: "/oops" }, callbacks: { signIn: () => false }, logger: { error: () => {} } })
    const jar = new CookieJar()
    expect(location(await send(config, "/auth/signout", { jar, form: {} })).href).toBe(`${origin}/login?error=MissingCSRF`)
    const denied = await signInAlice(config, jar)
    expect(location(denied).href).toBe(`${origin}/oops?error=AccessDenied`)
  })

  it("detects a configured page that is the endpoint it replaces, logs it and shows the built-in page", async () => {
    const cases: [Partial<NonNullable<AuthConfig["pages"]>>, string, number][] = [
      [{ signIn: "/auth/signin" }, "/auth/signin", 200],
      [{ signIn: "/auth/signin/credentials" }, "/auth/signin", 200],
      [{ signOut: `${origin}/auth/signout/` }, "/auth/signout", 200],
      [{ error: "/auth/error?from=app" }, "/auth/error?error=AccessDenied", 403],
      [{ verifyRequest: "/auth/verify-request" }, "/auth/verify-request", 200],
    ]
    for (const [pages, path, status] of cases) {
      const error = vi.fn()
      const res = await send(jwtConfig({ pages, logger: { error } }), path)
      expect(res.status, path).toBe(status)
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8")
      expect(error.mock.calls[0]![0].type).toBe("ErrorPageLoop")
    }
    // The same path on another origin, or under another base path, is a real page.
    const elsewhere = await send(jwtConfig({ pages: { error: "https://other.example/auth/error" } }), "/auth/error?error=AccessDenied")
    expect(elsewhere.headers.get("location")).toBe("https://other.example/auth/error?error=AccessDenied")
    const otherBase = await send(jwtConfig({ pages: { error: "/app/auth/error" } }), "/auth/error")
    expect(otherBase.status).toBe(302)
  })

  it("a failed flow never redirects to an error page that loops", async () => {
    const config = jwtConfig({ pages: { error: "/auth/error" }, callbacks: { signIn: () => false }, logger: { error: () => {} } })
    const res = await signInAlice(config, new CookieJar())
    expect(res.headers.get("location")).toBe(`${authUrl}/error?error=AccessDenied`)
  })

  it("with a broken configuration, sends pages to pages.error, unless the request came from there", async () => {
    const broken = (pages: AuthConfig["pages"]): AuthConfig => ({
      ...jwtConfig({ pages }),
      session: { strategy: "database" },
      logger: { error: () => {} },
    })
    const away = await send(broken({ error: "/oops" }), "/auth/signin?callbackUrl=%2Fdashboard")
    expect(away.headers.get("location")).toBe("/oops?error=Configuration")
    for (const from of ["%2Foops", "%2Foops%3Ferror%3DConfiguration", encodeURIComponent(`${origin}/oops/`)]) {
      const back = await send(broken({ error: "/oops" }), `/auth/signin?callbackUrl=${from}`)
      expect(back.status, from).toBe(500)
      expect(await back.text()).toContain("<h1>Server error</h1>")
    }
    const loop = await send(broken({ error: "/auth/error" }), "/auth/error?error=Configuration")
    expect(loop.status).toBe(500)
    const link = await (await send(broken({ signIn: "/login" }), "/auth/error")).text()
    expect(link).toContain(`<a href="/login">`)
  })
})
