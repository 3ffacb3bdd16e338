/**
 * Who a passkey ceremony is for: the rules that pick, before the browser is asked anything, which
 * ceremony runs for whom (`passkeyCeremony`), and, when a new passkey comes back, whose it is
 * (`newPasskeyOwner`). The flows themselves are in `webauthn/`.
 *
 * | signed in | `action`       | `email`        | ceremony                                      |
 * |-----------|----------------|----------------|-----------------------------------------------|
 * | no        | `authenticate` | none or new    | authenticate with any passkey of this site    |
 * | no        | `authenticate` | a user's       | authenticate with that user's passkeys        |
 * | no        | `register`     | new            | register a passkey for a new user             |
 * | no        | none           | none           | authenticate with any passkey                 |
 * | no        | none           | a user's / new | authenticate with theirs / register           |
 * | yes       | `register`     | (ignored)      | add a passkey to the signed-in user           |
 * | yes       | `authenticate` | (ignored)      | authenticate with the signed-in user's keys   |
 *
 * Everything else is refused (`400 {"error":"Invalid request"}`): registering without an email or
 * for an email that has a user, or no action while signed in (ambiguous).
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { CheckedAdapter } from "../adapters/wrap.js"
import { BadRequest, WebAuthnVerificationError } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { recentlySignedIn } from "../session/fresh.js"
import { signedInUser } from "../session/index.js"

export type Ceremony = "authenticate" | "register"

/** The ceremony to run, and for whom. */
export type CeremonyPlan =
  | { action: "authenticate"; user: AdapterUser | null }
  | { action: "register"; user: AdapterUser; signedIn: true }
  | { action: "register"; email: string; signedIn: false }

function invalidRequest(message: string): BadRequest {
  return new BadRequest(message, 400, "Invalid request")
}

/**
 * The signed-in user of a passkey request. Passkeys always run with an adapter, and then both
 * session strategies give the stored user (the JWT one looks its `sub` up), so no second read is
 * needed.
 */
export async function currentAdapterUser(ctx: RequestContext): Promise<AdapterUser | null> {
  const user = await signedInUser(ctx)
  return user && typeof user.id === "string" && typeof user.email === "string" ? (user as AdapterUser) : null
}

/** Which ceremony to run for this request (see the table above); throws the `BadRequest` that says why none can. */
export async function passkeyCeremony(ctx: RequestContext, adapter: CheckedAdapter, requested: Ceremony | undefined, email: string | undefined): Promise<CeremonyPlan> {
  const user = await currentAdapterUser(ctx)
  if (user) {
    if (requested === "register") {
      // A new way in for an existing account: a session left open must not be enough to add one.
      if (!(await recentlySignedIn(ctx))) throw new BadRequest("Adding a passkey needs a recent sign-in: sign in again first.", 403, "Sign in again")
      return { action: "register", user, signedIn: true }
    }
    if (requested === "authenticate") return { action: "authenticate", user }
    throw invalidRequest("A signed-in user must say whether to `register` a passkey or `authenticate`.")
  }
  const owner = email ? await adapter.getUserByEmail(email) : null
  if (requested === "authenticate") return { action: "authenticate", user: owner }
  if (requested === "register" || (requested === undefined && email && !owner)) {
    if (!email) throw invalidRequest("Registering a passkey needs an `email`, or a signed-in user.")
    if (owner) throw invalidRequest("This email address already has an account: sign in, then add a passkey.")
    return { action: "register", email, signedIn: false }
  }
  return { action: "authenticate", user: owner }
}

/**
 * Whose new passkey this is: the user the registration challenge names, who must still be the one
 * signed in; or a new user with the challenge's email, when nobody has signed in meanwhile.
 * Throws `WebAuthnVerificationError` otherwise.
 */
export async function newPasskeyOwner(
  ctx: RequestContext,
  provider: { id: string },
  challenge: { userId?: string; email?: string },
): Promise<AdapterUser | { email: string; name: null }> {
  const current = await currentAdapterUser(ctx)
  if (challenge.userId !== undefined) {
    if (current?.id !== challenge.userId) {
      throw new WebAuthnVerificationError("The signed-in user changed since the passkey registration started.", { cause: { provider: provider.id } })
    }
    return current
  }
  if (challenge.email !== undefined && !current) return { email: challenge.email, name: null }
  throw new WebAuthnVerificationError("Someone signed in since the passkey registration started.", { cause: { provider: provider.id } })
}
