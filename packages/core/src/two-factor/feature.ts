/**
 * Two-factor sign-in as a built-in feature: the challenge after a first factor, the setup of a
 * second factor, recovery codes, turning it off, and the step-up (`reauthenticate`) that changes to
 * an account ask for.
 *
 * @module
 */
import { route } from "../modules/route.js"
import { MissingAdapterMethods } from "../errors.js"
import { codeCookieMaxAge, type CookieDeclaration } from "../http/cookies.js"
import type { Feature } from "../modules/feature.js"
import { aboutSecondFactor } from "./about.js"
import { askSecondFactor, resendChallengeCode, showChallenge, submitChallenge } from "./challenge.js"
import { secondFactorGate } from "./gate.js"
import { twoFactorMessages } from "./messages.js"
import type { TwoFactorCookies } from "./options.js"
import { pendingSignInMaxAge } from "./pending.js"
import { forgetDevices } from "./remember.js"
import { resolveTwoFactor, twoFactorMethods, twoFactorWanted, type ResolvedTwoFactor } from "./settings.js"
import { disableTwoFactor, regenerateRecoveryCodes, showSetup, submitSetup } from "./setup.js"
import { showReauthenticate, submitReauthenticate } from "./step-up.js"

declare module "../modules/feature.js" {
  interface FeatureSettingsMap {
    twoFactor: ResolvedTwoFactor
  }
}

export const twoFactorFeature: Feature<"twoFactor"> = {
  id: "two-factor",
  messages: twoFactorMessages,
  cookies: {
    pendingSignIn: { name: "pending-sign-in", maxAge: pendingSignInMaxAge },
    twoFactorSetup: { name: "two-factor-setup", maxAge: codeCookieMaxAge },
    // Its lifetime is the app's `twoFactor.rememberDevice`, set where it is issued.
    rememberedDevice: { name: "remembered-device" },
  } satisfies Record<keyof TwoFactorCookies, CookieDeclaration>,
  settings: {
    key: "twoFactor",
    // On whenever the adapter can keep second factors, unless the app says `twoFactor: false`.
    resolve({ config, adapter }) {
      const wanted = twoFactorWanted(config.twoFactor, config.adapter)
      if (wanted.missing.length > 0) {
        throw new MissingAdapterMethods(`The adapter is missing methods that the configuration needs: ${wanted.missing.map((m) => `${m} (for twoFactor)`).join(", ")}.`)
      }
      return wanted.on && adapter ? resolveTwoFactor(config.twoFactor || undefined, adapter) : undefined
    },
  },
  signInGate: { decide: secondFactorGate, ask: askSecondFactor },
  // A device remembered for the second factor must not outlive the sessions, or the password, it was remembered with.
  sessionsEnded: forgetDevices,
  aboutUser: aboutSecondFactor,
  optional: ({ config }) => (config.twoFactor === false ? [] : [["two-factor sign-in", twoFactorMethods]]),
  routes: {
    "GET two-factor": route({ run: showChallenge }),
    "POST two-factor": route({ limit: "sign-in", csrf: true, run: submitChallenge }),
    "POST two-factor/email": route({ limit: "email", csrf: true, run: resendChallengeCode }),
    "GET two-factor/setup": route({ run: showSetup }),
    "POST two-factor/setup": route({ csrf: true, run: submitSetup }),
    "POST two-factor/recovery-codes": route({ csrf: true, run: regenerateRecoveryCodes }),
    "POST two-factor/disable": route({ csrf: true, run: disableTwoFactor }),
    "GET reauthenticate": route({ run: showReauthenticate }),
    "POST reauthenticate": route({ limit: "sign-in", csrf: true, run: submitReauthenticate }),
  },
}
