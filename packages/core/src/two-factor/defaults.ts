/**
 * The defaults of two-factor sign-in, with the reasons for them. The core's own are in
 * `config/defaults.ts`.
 *
 * @module
 */
import { defaultPasswordThrottle } from "../config/defaults.js"

/**
 * Two-factor sign-in. TOTP as RFC 6238 and every authenticator app: 6 digits, 30-second steps, a
 * step of clock drift either way. Ten recovery codes, as GitHub and Google give. An emailed code
 * lasts as every emailed code (`defaultEmailCode`); at most 5 are sent per user in 15 minutes. A
 * pending sign-in takes 5 tries, then the first factor must be given again.
 */
export const defaultTwoFactor = {
  rememberDevice: false,
  email: true,
  digits: 6,
  period: 30,
  drift: 1,
  recoveryCodes: 10,
  triesPerCode: 5,
  emailCodesPerWindow: 5,
  emailCodeWindow: 15 * 60,
} as const

/**
 * Wrong second-factor codes per user: five free tries, then waits that double up to a minute, and
 * after ten an hour's lockout. A guesser gets about 240 tries a day, against a 1 in 333,333 chance
 * each (three codes are good at any time): the pending sign-in's own 5 tries and the first
 * factor's throttle come on top. Per client IP as the password throttle.
 */
export const defaultTwoFactorThrottle = {
  account: { freeAttempts: 5, maxDelay: 60, lockoutAfter: 10, lockout: 60 * 60, forgetAfter: 24 * 60 * 60 },
  ip: defaultPasswordThrottle.ip,
} as const
