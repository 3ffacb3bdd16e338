/**
 * The two-factor endpoints (`two-factor/`): the sign-in challenge (`GET|POST two-factor`, `POST
 * two-factor/email`), the settings of a signed-in user (`GET|POST two-factor/setup`, `POST
 * two-factor/recovery-codes`, `POST two-factor/disable`) and step-up (`GET|POST reauthenticate`).
 * The dispatcher has checked the origin and the CSRF token of every POST.
 *
 * @module
 */
export { resendChallengeCode, showChallenge, submitChallenge } from "../two-factor/challenge.js"
export { disableTwoFactor, regenerateRecoveryCodes, showSetup, submitSetup } from "../two-factor/setup.js"
export { showReauthenticate, submitReauthenticate } from "../two-factor/step-up.js"
