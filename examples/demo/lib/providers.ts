/**
 * The sign-in methods, from the environment that `npm start` sets up:
 *
 * - credentials: the demo account (lib/demo-account.ts), throttled against password guessing
 *   (after 5 wrong passwords for an address, a growing wait, answered like a wrong password);
 * - OAuth: GitHub, Google, GitLab and Discord when their `AUTH_<ID>_ID` is set, else the local
 *   "Sesame Dev IdP" when `AUTH_DEV_IDP_ISSUER` is (Sesame reads `AUTH_<ID>_ID`, `_SECRET` and
 *   `_ISSUER` itself);
 * - email links over SMTP to `EMAIL_SERVER` (the local mailbox unless it names a real server);
 * - passkeys.
 */
import type { Provider } from "@sesame/core"
import Credentials from "@sesame/core/providers/credentials"
import Discord from "@sesame/core/providers/discord"
import GitHub from "@sesame/core/providers/github"
import GitLab from "@sesame/core/providers/gitlab"
import Google from "@sesame/core/providers/google"
import Nodemailer from "@sesame/core/providers/nodemailer"
import Passkey from "@sesame/core/providers/passkey"
import { checkPassword } from "./demo-account"

const env = process.env

const real: Provider[] = [
  ...(env.AUTH_GITHUB_ID ? [GitHub({})] : []),
  ...(env.AUTH_GOOGLE_ID ? [Google({})] : []),
  ...(env.AUTH_GITLAB_ID ? [GitLab({})] : []),
  ...(env.AUTH_DISCORD_ID ? [Discord({})] : []),
]

const oauth: Provider[] = real.length > 0 ? real : env.AUTH_DEV_IDP_ISSUER ? [{ id: "dev-idp", name: "Sesame Dev IdP", type: "oidc" }] : []

/** The identity providers a signed-in user can link (a sign-in with them links the account). */
export const linkableProviders: { id: string; name: string }[] = oauth.map((provider) => ({ id: provider.id!, name: provider.name! }))

export const providers: Provider[] = [
  Credentials({
    name: "email and password",
    credentials: {
      email: { label: "Email", type: "email", autocomplete: "username" },
      password: { label: "Password", type: "password", autocomplete: "current-password" },
    },
    // Counted per posted `email`, in the adapter's counters (SQLite), so restarts keep the counts.
    throttle: true,
    authorize: ({ email, password }) => checkPassword(email, password),
  }),
  ...oauth,
  ...(env.EMAIL_SERVER ? [Nodemailer({ server: env.EMAIL_SERVER, from: env.EMAIL_FROM ?? "Sesame demo <no-reply@localhost>" })] : []),
  Passkey(),
]
