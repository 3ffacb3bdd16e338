/**
 * Configuring passkeys: the experimental flag and its warning, the two factories' defaults, and
 * the configuration errors, each naming what to fix.
 */
import type { AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Passkey from "@sesame/core/providers/passkey"
import WebAuthn from "@sesame/core/providers/webauthn"
import { describe, expect, it, vi } from "vitest"
import { resolveConfig } from "../../src/config/resolve.js"
import { CookieJar, send } from "../helpers.js"
import { askOptions, setup } from "./harness.js"

function configError(overrides: Partial<AuthConfig>): { type: string; message: string } {
  const { config } = setup(overrides)
  const resolution = resolveConfig(config, {})
  if (resolution.ok) throw new Error("expected a configuration error")
  return { type: resolution.error.type, message: resolution.error.message }
}

describe("the experimental flag", () => {
  it("is required, and every endpoint then answers with the configuration error", async () => {
    expect(configError({ experimental: {} })).toEqual({
      type: "ExperimentalFeatureNotEnabled",
      message: 'The WebAuthn provider "passkey" needs `experimental: { enableWebAuthn: true }` in the configuration.',
    })
    const { config } = setup({ experimental: { enableWebAuthn: false } })
    const response = await send(config, "/auth/webauthn-options/passkey")
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({ message: expect.stringContaining("problem with the server configuration") })
  })

  it("prints the experimental-webauthn warning once per configuration", async () => {
    const warn = vi.fn()
    const { config } = setup({ logger: { warn, error: () => {} } })
    for (let i = 0; i < 3; i++) await askOptions(config, new CookieJar())
    expect(warn.mock.calls).toEqual([["experimental-webauthn"]])
  })
})

describe("the factories", () => {
  it("Passkey() requires user verification and a resident key; WebAuthn() prefers them", () => {
    expect(Passkey()).toEqual({ id: "passkey", name: "Passkey", type: "webauthn", userVerification: "required", residentKey: "required" })
    expect(WebAuthn()).toEqual({ id: "webauthn", name: "WebAuthn", type: "webauthn", userVerification: "preferred", residentKey: "preferred" })
    expect(Passkey({ id: "keys", name: "Keys", timeout: 1000 })).toMatchObject({ id: "keys", name: "Keys", timeout: 1000, type: "webauthn" })
  })

  it("resolve with conditional UI, an optional email field for autofill, and a 5-minute timeout", () => {
    const { config } = setup()
    const resolution = resolveConfig(config, {})
    if (!resolution.ok) throw resolution.error
    expect(resolution.config.providers.get("passkey")?.config).toEqual({
      id: "passkey",
      name: "Passkey",
      type: "webauthn",
      userVerification: "required",
      residentKey: "required",
      enableConditionalUI: true,
      formFields: { email: { type: "email", autocomplete: "username webauthn" } },
      timeout: 300_000,
    })
  })
})

describe("configuration errors", () => {
  it("at most one provider may enable conditional UI, and its form needs a webauthn autocomplete field", () => {
    expect(configError({ providers: [Passkey(), WebAuthn()] })).toEqual({
      type: "DuplicateConditionalUI",
      message: 'WebAuthn providers "passkey" and "webauthn" both enable conditional UI; set `enableConditionalUI: false` on all but one.',
    })
    expect(configError({ providers: [Passkey({ formFields: { email: { autocomplete: "username" } } })] }).type).toBe("MissingWebAuthnAutocomplete")
    expect(() => {
      const resolution = resolveConfig(setup({ providers: [Passkey(), WebAuthn({ enableConditionalUI: false })] }).config, {})
      if (!resolution.ok) throw resolution.error
    }).not.toThrow()
  })

  it("names a bad relying party, requirement or timeout", () => {
    const cases: [Parameters<typeof Passkey>[0], RegExp][] = [
      [{ relayingParty: { id: "127.0.0.1" } }, /`relayingParty.id` must be a domain name .*browsers refuse IP addresses.*"127.0.0.1"/],
      [{ relayingParty: { id: "::1" } }, /`relayingParty.id` must be a domain name/],
      [{ relayingParty: { id: "https://example.com" } }, /`relayingParty.id` must be a domain name/],
      [{ relayingParty: { origin: "https://example.com/" } }, /`relayingParty.origin` must be an origin such as "https:\/\/example.com" \(no path or trailing slash\); got "https:\/\/example.com\/"/],
      [{ relayingParty: { origin: [] } }, /at least one origin/],
      [{ relayingParty: { name: "" } }, /`relayingParty.name` must be a non-empty string/],
      [{ userVerification: "always" as "required" }, /`userVerification` must be "required", "preferred" or "discouraged"/],
      [{ residentKey: "yes" as "required" }, /`residentKey` must be/],
      [{ timeout: 0 }, /`timeout` must be a positive number of milliseconds; got 0/],
    ]
    for (const [options, message] of cases) {
      const error = configError({ providers: [Passkey(options)] })
      expect(error.type).toBe("InvalidProvider")
      expect(error.message).toMatch(message)
    }
  })

  it("needs an adapter with the authenticator methods", () => {
    expect(configError({ adapter: undefined })).toMatchObject({ type: "MissingAdapter", message: expect.stringContaining('Provider "passkey" (webauthn)') })
    const { getAuthenticator: _get, updateAuthenticatorCounter: _update, ...partial } = MemoryAdapter()
    expect(configError({ adapter: partial })).toEqual({
      type: "MissingAdapterMethods",
      message:
        'The adapter is missing methods that the configuration needs: getAuthenticator (for provider "passkey"), updateAuthenticatorCounter (for provider "passkey").',
    })
  })
})

describe("the library", () => {
  it("is loaded on the first passkey request only, and a missing package is a configuration error naming it", async () => {
    vi.resetModules()
    vi.doMock("@simplewebauthn/server", () => {
      throw new Error("Cannot find package '@simplewebauthn/server'")
    })
    try {
      const { simpleWebAuthn } = await import("../../src/webauthn/library.js")
      await expect(simpleWebAuthn()).rejects.toMatchObject({
        type: "InvalidProvider",
        message: "WebAuthn providers need the @simplewebauthn/server package: npm install @simplewebauthn/server@14",
      })
    } finally {
      vi.doUnmock("@simplewebauthn/server")
      vi.resetModules()
    }
    const { simpleWebAuthn } = await import("../../src/webauthn/library.js")
    expect(typeof (await simpleWebAuthn()).verifyAuthenticationResponse).toBe("function")
  })
})
