/**
 * The sign-in methods, from the environment that `npm start` sets up:
 *
 * - passwords (`Password()`): sign-up with a confirmed address, sign-in throttled against guessing
 *   (after 5 wrong passwords for an address, a growing wait, answered like a wrong password),
 *   forgotten passwords; its emails go over SMTP to `EMAIL_SERVER`. The demo account
 *   (lib/demo-account.ts) is one of these accounts;
 * - OAuth: GitHub, Google, GitLab and Discord when their `AUTH_<ID>_ID` is set, else the local
 *   "Sesame Dev IdP" when `AUTH_DEV_IDP_ISSUER` is (Sesame reads `AUTH_<ID>_ID`, `_SECRET` and
 *   `_ISSUER` itself);
 * - email links over SMTP to `EMAIL_SERVER` (the local mailbox unless it names a real server), each
 *   with a six-digit code beside the link (`code: true`), typed on the "check your email" page;
 *   the same provider sends the codes of users whose second factor is email;
 * - passkeys.
 */
import type { Provider } from "@sesame/core"
import Discord from "@sesame/core/providers/discord"
import GitHub from "@sesame/core/providers/github"
import GitLab from "@sesame/core/providers/gitlab"
import Google from "@sesame/core/providers/google"
import Nodemailer, { smtpSender } from "@sesame/core/providers/nodemailer"
import Passkey from "@sesame/core/providers/passkey"
import Password from "@sesame/core/providers/password"

const env = process.env
const from = env.EMAIL_FROM ?? "Sesame demo <no-reply@localhost>"

/** The shortest new password accepted: the provider's policy, and the home page's forms' hint. */
export const minPasswordLength = 8

const real: Provider[] = [
  ...(env.AUTH_GITHUB_ID ? [GitHub({})] : []),
  ...(env.AUTH_GOOGLE_ID ? [Google({})] : []),
  ...(env.AUTH_GITLAB_ID ? [GitLab({})] : []),
  ...(env.AUTH_DISCORD_ID ? [Discord({})] : []),
]

const oauth: Provider[] = real.length > 0 ? real : env.AUTH_DEV_IDP_ISSUER ? [{ id: "dev-idp", name: "Sesame Dev IdP", type: "oidc" }] : []

/** The identity providers a signed-in user can link (a sign-in with them links the account). */
export const linkableProviders: { id: string; name: string }[] = oauth.map((provider) => ({ id: provider.id!, name: provider.name! }))

/**
 * Without an SMTP server (`next start` without the launcher) no confirmation email could arrive:
 * sign-up is off, and a reset email fails with this error in the server's log (the visitor sees
 * the same "check your email" page, which does not depend on the address).
 */
function noEmailServer(): never {
  throw new Error("EMAIL_SERVER is not set, so the password provider cannot send its emails: start the demo with npm start.")
}

/**
 * The demo's emails over SMTP to `EMAIL_SERVER` (the local mailbox under `npm start`): the password
 * provider's, and the organizations' invitations (lib/store.ts). Undefined without a server.
 */
export const sendMail = env.EMAIL_SERVER ? smtpSender({ server: env.EMAIL_SERVER, from }) : undefined

export const providers: Provider[] = [
  Password({
    sendEmail: sendMail ?? noEmailServer,
    signUp: Boolean(env.EMAIL_SERVER),
    policy: { minLength: minPasswordLength },
    // The throttle's counts are kept by the adapter (SQLite), so a restart keeps them: the default.
  }),
  ...oauth,
  // The code too: for reading the mail on a phone and signing in on another device.
  ...(env.EMAIL_SERVER ? [Nodemailer({ server: env.EMAIL_SERVER, from, code: true })] : []),
  Passkey(),
]
