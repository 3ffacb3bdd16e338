/**
 * The registration list: the models Sesame's own capabilities keep in the adapter's generic store,
 * by capability. The one place outside the capabilities' folders that names them (issue 32); the
 * adapters' migrations make their tables (the numbered migrations that every release has applied),
 * and the conformance suite checks them on every adapter.
 *
 * @module
 */
import { counterModel } from "./password/counters.js"
import { passwordModel } from "./password/storage.js"
import type { ModelDeclaration } from "./store/model.js"
import { signingKeyModel } from "./tokens/storage.js"
import { recoveryCodeModel, twoFactorModel } from "./two-factor/storage.js"

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
