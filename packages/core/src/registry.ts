/**
 * The registration list: Sesame's own capabilities, as the core's hubs read them, and the models
 * they keep in the adapter's generic store. The one place outside the capabilities' folders that
 * names them (issue 32); the adapters' migrations make their tables (the numbered migrations that
 * every release has applied), and the conformance suite checks them on every adapter.
 *
 * @module
 */
import { accountPageFeature } from "./account-page/feature.js"
import type { AccountPageMessages } from "./account-page/messages.js"
import type { AccountPageConfig } from "./account-page/options.js"
import { captchaFeature } from "./captcha/feature.js"
import type { CaptchaMessages } from "./captcha/messages.js"
import type { CaptchaConfig } from "./captcha/types.js"
import { emailFeature } from "./email/feature.js"
import type { EmailMessages } from "./email/messages.js"
import type { EmailProvider } from "./email/resolve.js"
import type { EmailCodeCookies, EmailConfig } from "./email/types.js"
import type { Feature } from "./modules/feature.js"
import { migrateFromAuthjsFeature } from "./migrate/authjs/feature.js"
import { nativeAppsFeature } from "./native/feature.js"
import type { NativeAppsMessages } from "./native/messages.js"
import type { NativeAppsConfig } from "./native/options.js"
import { counterModel } from "./password/counters.js"
import { passwordFeature } from "./password/feature.js"
import type { PasswordMessages } from "./password/messages.js"
import type { PasswordProvider } from "./password/provider.js"
import { passwordModel } from "./password/storage.js"
import type { PasswordConfig, PasswordEvents } from "./password/types.js"
import type { ModelDeclaration } from "./store/model.js"
import { apiTokensFeature } from "./tokens/feature.js"
import type { ApiTokensConfig } from "./tokens/options.js"
import { signingKeyModel } from "./tokens/storage.js"
import { rateLimitFeature } from "./rate-limit/feature.js"
import type { RateLimitMessages } from "./rate-limit/messages.js"
import type { RateLimitConfig } from "./rate-limit/options.js"
import { twoFactorFeature } from "./two-factor/feature.js"
import type { TwoFactorMessages } from "./two-factor/messages.js"
import type { TwoFactorConfig, TwoFactorCookies, TwoFactorEvents, TwoFactorProviderOptions } from "./two-factor/options.js"
import { recoveryCodeModel, twoFactorModel } from "./two-factor/storage.js"
import { passkeysFeature } from "./webauthn/feature.js"
import type { PasskeyMessages } from "./webauthn/messages.js"
import type { PasskeyProvider } from "./webauthn/provider.js"
import type { PasskeyCookies, WebAuthnConfig } from "./webauthn/types.js"

/** The built-in capabilities' options, part of `AuthConfig`. */
export interface BuiltInOptions extends TwoFactorConfig, ApiTokensConfig, NativeAppsConfig, AccountPageConfig, RateLimitConfig, CaptchaConfig {}

/** The built-in capabilities' cookies, by role, part of `CookiesOptions`. */
export interface BuiltInCookies extends EmailCodeCookies, PasskeyCookies, TwoFactorCookies {}

/** The built-in capabilities' texts, by key, part of `Messages` (each feature's `messages` holds their catalogues). */
export interface BuiltInMessages extends EmailMessages, PasswordMessages, PasskeyMessages, TwoFactorMessages, NativeAppsMessages, AccountPageMessages, RateLimitMessages, CaptchaMessages {}

/** The built-in capabilities' options on every provider, part of `CommonProviderOptions`. */
export interface BuiltInProviderOptions extends TwoFactorProviderOptions {}

/** The built-in capabilities' events, part of `EventCallbacks`. */
export interface BuiltInEvents extends PasswordEvents, TwoFactorEvents {}

/** The built-in provider kinds' options, part of the `Provider` union. */
export type BuiltInProviderConfig = EmailConfig | WebAuthnConfig | PasswordConfig

/** The built-in provider kinds as the request path uses them, part of `ResolvedProvider`. */
export type BuiltInProvider = EmailProvider | PasskeyProvider | PasswordProvider

let features: readonly Feature[] | undefined

/**
 * The built-in capabilities. A function, not a constant: the hubs that read it are imported by the
 * capabilities too, and a module cycle must not read the list before it is made.
 */
export function builtInFeatures(): readonly Feature[] {
  return (features ??= Object.freeze([emailFeature, passwordFeature, passkeysFeature, twoFactorFeature, apiTokensFeature, nativeAppsFeature, migrateFromAuthjsFeature, accountPageFeature, captchaFeature, rateLimitFeature]))
}

/** The built-in models, by their names. */
export const builtInModels = {
  passwords: passwordModel,
  counters: counterModel,
  twoFactors: twoFactorModel,
  recoveryCodes: recoveryCodeModel,
  signingKeys: signingKeyModel,
} as const satisfies Record<string, ModelDeclaration>

/** Their names, which a plugin's models may not take. */
export const builtInModelNames: ReadonlySet<string> = new Set(Object.keys(builtInModels))
