/**
 * A `webauthn` provider with its defaults, checked once when the configuration is resolved.
 *
 * Defaults: conditional UI on, an optional email field with `autocomplete="username webauthn"`
 * (the field browsers attach passkey autofill to), user verification and resident key
 * `preferred` (the passkey factory asks for `required`), and a 5-minute ceremony.
 *
 * @module
 */
import type { CheckedAdapter } from "../adapters/wrap.js"
import type { CredentialInput } from "../credentials/types.js"
import { DuplicateConditionalUI, InvalidProvider, MissingWebAuthnAutocomplete } from "../errors.js"
import type { RelyingParty, WebAuthnConfig } from "./types.js"

/** Milliseconds the browser waits for the user. */
const defaultTimeout = 5 * 60 * 1000

/** The form of the built-in page: an optional email field that offers passkeys in its autofill. */
export function defaultFormFields(): Record<string, CredentialInput> {
  return { email: { type: "email", autocomplete: "username webauthn" } }
}

/** A provider's options after `resolveWebAuthnProvider`: every option has its value. */
export type ResolvedWebAuthnConfig = WebAuthnConfig &
  Required<Pick<WebAuthnConfig, "enableConditionalUI" | "formFields" | "userVerification" | "residentKey" | "timeout">>

/** A `webauthn` provider as its flows use it: its options with their defaults, and the adapter that keeps passkeys. */
export interface PasskeyProvider {
  readonly type: "webauthn"
  readonly id: string
  readonly name: string
  readonly config: ResolvedWebAuthnConfig
  /** Where passkeys, their accounts and the ceremonies' challenges are stored (validated with the configuration). */
  readonly adapter: CheckedAdapter
}

const requirements: ReadonlySet<unknown> = new Set(["required", "preferred", "discouraged"])
const ipAddress = /^(\d{1,3}\.){3}\d{1,3}$|:/

function invalid(id: string, message: string): never {
  throw new InvalidProvider(`WebAuthn provider "${id}": ${message}`)
}

function checkOrigin(id: string, value: unknown): void {
  let url: URL | undefined
  try {
    url = typeof value === "string" ? new URL(value) : undefined
  } catch {
    url = undefined
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.origin !== value) {
    invalid(id, `\`relayingParty.origin\` must be an origin such as "https://example.com" (no path or trailing slash); got ${JSON.stringify(value)}.`)
  }
}

function checkRelyingParty(id: string, rp: Partial<RelyingParty> | undefined): void {
  if (rp === undefined) return
  if (!rp || typeof rp !== "object") invalid(id, "`relayingParty` must be an object with `id`, `name` and/or `origin`.")
  if (rp.id !== undefined && (typeof rp.id !== "string" || !/^[a-z0-9.-]+$/i.test(rp.id) || ipAddress.test(rp.id))) {
    invalid(id, `\`relayingParty.id\` must be a domain name such as "example.com" (browsers refuse IP addresses); got ${JSON.stringify(rp.id)}.`)
  }
  if (rp.name !== undefined && (typeof rp.name !== "string" || rp.name.length === 0)) invalid(id, "`relayingParty.name` must be a non-empty string.")
  if (rp.origin !== undefined) {
    const origins = Array.isArray(rp.origin) ? rp.origin : [rp.origin]
    if (origins.length === 0) invalid(id, "`relayingParty.origin` must name at least one origin.")
    for (const origin of origins) checkOrigin(id, origin)
  }
}

/**
 * Fills in the defaults of `provider` and checks its options: the provider, all but its adapter
 * (attached once the adapter is checked, see `config/providers.ts`). Throws `InvalidProvider`.
 */
export function resolveWebAuthnProvider(provider: WebAuthnConfig): Omit<PasskeyProvider, "adapter"> {
  const { id } = provider
  checkRelyingParty(id, provider.relayingParty)
  const resolved: ResolvedWebAuthnConfig = {
    ...provider,
    enableConditionalUI: provider.enableConditionalUI ?? true,
    formFields: provider.formFields ?? defaultFormFields(),
    userVerification: provider.userVerification ?? "preferred",
    residentKey: provider.residentKey ?? "preferred",
    timeout: provider.timeout ?? defaultTimeout,
  }
  if (!requirements.has(resolved.userVerification)) invalid(id, '`userVerification` must be "required", "preferred" or "discouraged".')
  if (!requirements.has(resolved.residentKey)) invalid(id, '`residentKey` must be "required", "preferred" or "discouraged".')
  if (typeof resolved.timeout !== "number" || !Number.isFinite(resolved.timeout) || resolved.timeout <= 0) {
    invalid(id, `\`timeout\` must be a positive number of milliseconds; got ${JSON.stringify(resolved.timeout)}.`)
  }
  if (!resolved.formFields || typeof resolved.formFields !== "object") invalid(id, "`formFields` must be an object of fields by name.")
  return { type: "webauthn", id, name: resolved.name, config: resolved }
}

/**
 * Checks what concerns the WebAuthn providers together: a page can run one conditional-UI request
 * at a time, so at most one provider may ask for it, and browsers only offer passkeys in a field
 * whose `autocomplete` ends with `webauthn`.
 */
export function checkWebAuthnProviders(configs: readonly WebAuthnConfig[]): void {
  const conditional = configs.filter((p) => p.enableConditionalUI !== false)
  if (conditional.length > 1) {
    throw new DuplicateConditionalUI(
      `WebAuthn providers ${conditional.map((p) => `"${p.id}"`).join(" and ")} both enable conditional UI; set \`enableConditionalUI: false\` on all but one.`,
    )
  }
  const [provider] = conditional
  if (!provider) return
  const fields = Object.values(provider.formFields ?? defaultFormFields())
  if (!fields.some((field) => /(^|\s)webauthn$/.test(field.autocomplete ?? ""))) {
    throw new MissingWebAuthnAutocomplete(
      `WebAuthn provider "${provider.id}" enables conditional UI, so one of its \`formFields\` needs an \`autocomplete\` ending with "webauthn", e.g. "username webauthn".`,
    )
  }
}
