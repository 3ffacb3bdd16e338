/**
 * The passkey form on the built-in sign-in page, its Content-Security-Policy, and the script route
 * that serves `@simplewebauthn/browser` from the app itself.
 */
import Passkey from "@sesame/core/providers/passkey"
import { describe, expect, it } from "vitest"
import { buildPasskeyScript } from "../../scripts/passkey-script.mjs"
import { passkeyScript, passkeyScriptVersion } from "../../src/webauthn/script.generated.js"
import { aliceCredentials, origin, send } from "../helpers.js"
import { setup } from "./harness.js"

function directives(policy: string): Record<string, string> {
  return Object.fromEntries(policy.split(";").map((d) => d.trim().split(/\s+(.*)/s) as [string, string]))
}

const scriptPath = `/auth/webauthn-script?v=${passkeyScriptVersion}`

describe("the passkey form", () => {
  it("is hidden until its script runs, which the CSP allows by the page's nonce, with fetches to the page's origin only", async () => {
    const { config } = setup({ providers: [aliceCredentials(), Passkey()] })
    const response = await send(config, "/auth/signin?callbackUrl=%2Fhome")
    const html = await response.text()
    const nonce = /<style nonce="([A-Za-z0-9_-]{24})">/.exec(html)![1]!
    expect(html).toContain(`<script nonce="${nonce}" src="${scriptPath}" defer></script>`)
    expect(html.match(/<script/g)).toHaveLength(1)
    expect(directives(response.headers.get("content-security-policy")!)).toEqual({
      "default-src": "'none'",
      "style-src": `'nonce-${nonce}'`,
      "script-src": `'nonce-${nonce}'`,
      "connect-src": "'self'",
      "img-src": "'self' data:",
      "base-uri": "'none'",
      "frame-ancestors": "'none'",
    })
    // Hidden with the divider that joins it to the credentials form above it.
    expect(html).toContain(
      `<div data-sesame-passkey-section hidden><p class="divider">or</p><form action="${origin}/auth/callback/passkey" method="POST" data-sesame-passkey="passkey" data-auth-url="/auth" data-conditional data-status-working="Waiting for your passkey…" data-status-failed="The passkey request was cancelled or timed out. Try again.">`,
    )
    expect(html).toContain(
      '<label for="provider-1-field-0">Email address</label>\n<input id="provider-1-field-0" name="email" type="email" autocomplete="username webauthn" aria-describedby="provider-1-hint">',
    )
    expect(html).toContain('<p class="passkey-hint" id="provider-1-hint">Enter your email to create a passkey, or leave it empty to use one you already have.</p>')
    expect(html).toContain('<button type="submit" class="primary">Sign in with Passkey</button>')
    expect(html).toContain('<p class="passkey-status" data-passkey-status role="status" aria-live="polite"></p>')
    expect(html).toContain(`<input type="hidden" name="callbackUrl" value="${origin}/home">`)
  })

  it("when it comes first, carries the divider after it; prefilled, translated, and without autofill when conditional UI is off", async () => {
    const { config } = setup({ providers: [Passkey({ enableConditionalUI: false }), aliceCredentials()] })
    const html = await (await send(config, "/auth/signin?email=ada%40example.com", { headers: { "accept-language": "fr" } })).text()
    expect(html).toMatch(/<div data-sesame-passkey-section hidden><form [^>]*>[\s\S]*<\/form><p class="divider">ou<\/p><\/div><form action="[^"]*\/callback\/credentials"/)
    expect(html).not.toContain("data-conditional")
    expect(html).toContain('value="ada@example.com" aria-describedby="provider-0-hint">')
    expect(html).toContain('data-status-working="En attente de votre clé d’accès…"')
    expect(html).toContain("Se connecter avec Passkey")
  })

  it("a page without a passkey provider stays script-free", async () => {
    const response = await send({ ...setup({ providers: [aliceCredentials()] }).config }, "/auth/signin")
    expect(await response.text()).not.toContain("<script")
    expect(response.headers.get("content-security-policy")).not.toContain("script-src")
  })
})

describe("GET webauthn-script", () => {
  it("serves the bundled script: a year of immutable cache for the current version, revalidation otherwise", async () => {
    const { config } = setup()
    const versioned = await send(config, scriptPath)
    expect(versioned.status).toBe(200)
    expect(versioned.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    expect(versioned.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    expect(versioned.headers.get("x-content-type-options")).toBe("nosniff")
    expect(versioned.headers.getSetCookie()).toEqual([])
    const body = await versioned.text()
    expect(body).toBe(passkeyScript)
    expect(body.startsWith("/*! Sesame passkey script. Includes @simplewebauthn/browser 14.0.0, MIT License, Copyright (c) 2020 Matthew Miller */")).toBe(true)

    const unversioned = await send(config, "/auth/webauthn-script")
    expect(unversioned.headers.get("cache-control")).toBe("no-cache")
    const etag = unversioned.headers.get("etag")!
    expect(etag).toBe(`"${passkeyScriptVersion}"`)
    const revalidated = await send(config, "/auth/webauthn-script", { headers: { "if-none-match": etag } })
    expect(revalidated.status).toBe(304)
    expect(await revalidated.text()).toBe("")
    expect((await send(config, "/auth/webauthn-script?v=old")).headers.get("cache-control")).toBe("no-cache")
  })

  it("is 404 without a WebAuthn provider, and takes no provider segment", async () => {
    const { config } = setup({ providers: [aliceCredentials()], experimental: {} })
    expect((await send(config, "/auth/webauthn-script")).status).toBe(404)
    expect((await send(setup().config, "/auth/webauthn-script/passkey")).status).toBe(400)
  })

  it("loads nothing from another host, and is up to date with its sources", async () => {
    expect(passkeyScript).not.toMatch(/unpkg|jsdelivr|cdnjs|esm\.sh|\bimport\(|importScripts|<script/)
    // Rebuilt from the sources now, it is the same script: run the build (or scripts/generate.mjs) after editing them.
    const rebuilt = await buildPasskeyScript()
    expect(rebuilt.version).toBe(passkeyScriptVersion)
  }, 30_000)
})
