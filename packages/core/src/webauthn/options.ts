/**
 * `GET webauthn-options/:provider?action=&email=`: the options of a passkey ceremony, and the
 * sealed challenge cookie that the callback checks the response against.
 *
 * Which ceremony, given who asks:
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
 * Everything else is `400 {"error":"Invalid request"}`: registering without an email or for an
 * email that has a user, or no action while signed in (ambiguous). An action that is neither
 * is `400 {"error":"Invalid action"}`. Both bodies add a `message` saying what was wrong.
 *
 * Answering "authenticate" or "register" for an email tells the caller whether the address has an
 * account, as Auth.js does; an app that must not reveal that offers passkeys without an email
 * field (discoverable credentials only) and registers them for signed-in users.
 *
 * @module
 */
import type { AdapterAuthenticator, AdapterUser } from "../adapters/types.js"
import type { CheckedAdapter } from "../adapters/wrap.js"
import { normalizeEmail } from "../email/normalize.js"
import type { RequestContext } from "../http/context.js"
import { json, noStore, type InternalResponse } from "../http/response.js"
import { setChallenge, type Ceremony } from "./challenge.js"
import { wireCredentialId } from "./credential-id.js"
import { currentAdapterUser } from "./current-user.js"
import { simpleWebAuthn } from "./library.js"
import type { ResolvedWebAuthnProvider } from "./provider.js"
import { relyingParty } from "./relying-party.js"

/**
 * The address as email sign-in normalises it (`email/normalize.ts`: NFKC, trimmed, lower case, one
 * plain address), so that a look-alike (`ａlice@` in full-width letters) names the same user as the
 * address it imitates, and an owner's later proof of it takes back what a squatter attached.
 */
function normaliseEmail(value: string): string | null {
  try {
    return normalizeEmail(value)
  } catch {
    return null
  }
}

function invalid(error: "Invalid action" | "Invalid request", message: string): InternalResponse {
  return json({ error, message }, 400, noStore)
}

function descriptors(authenticators: readonly AdapterAuthenticator[]) {
  return authenticators.map((a) => ({
    id: wireCredentialId(a.credentialID),
    ...(a.transports ? { transports: a.transports.split(",").filter(Boolean) } : {}),
  }))
}

type Plan =
  | { action: "authenticate"; user: AdapterUser | null }
  | { action: "register"; user: AdapterUser; signedIn: true }
  | { action: "register"; email: string; signedIn: false }

/** Which ceremony to run, or the 400 that says why none can. */
async function plan(ctx: RequestContext, adapter: CheckedAdapter, requested: Ceremony | undefined, email: string | undefined): Promise<Plan | InternalResponse> {
  const user = await currentAdapterUser(ctx)
  if (user) {
    if (requested === "register") return { action: "register", user, signedIn: true }
    if (requested === "authenticate") return { action: "authenticate", user }
    return invalid("Invalid request", "A signed-in user must say whether to `register` a passkey or `authenticate`.")
  }
  const owner = email ? await adapter.getUserByEmail(email) : null
  if (requested === "authenticate") return { action: "authenticate", user: owner }
  if (requested === "register" || (requested === undefined && email && !owner)) {
    if (!email) return invalid("Invalid request", "Registering a passkey needs an `email`, or a signed-in user.")
    if (owner) return invalid("Invalid request", "This email address already has an account: sign in, then add a passkey.")
    return { action: "register", email, signedIn: false }
  }
  return { action: "authenticate", user: owner }
}

export async function webAuthnOptions(ctx: RequestContext, provider: ResolvedWebAuthnProvider): Promise<InternalResponse> {
  const adapter = ctx.config.adapter as CheckedAdapter
  const requested = ctx.query.action
  if (requested !== undefined && requested !== "authenticate" && requested !== "register") {
    return invalid("Invalid action", 'The `action` must be "authenticate" or "register".')
  }
  let email: string | undefined
  if (ctx.query.email !== undefined && ctx.query.email.trim() !== "") {
    email = normaliseEmail(ctx.query.email) ?? undefined
    if (!email) return invalid("Invalid request", "The `email` is not an email address.")
  }
  const decided = await plan(ctx, adapter, requested, email)
  if (!("action" in decided)) return decided
  const lib = await simpleWebAuthn()
  const rp = relyingParty(ctx, provider)

  if (decided.action === "authenticate") {
    const known = decided.user ? await adapter.listAuthenticatorsByUserId(decided.user.id) : []
    const options = await lib.generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials: descriptors(known),
      timeout: provider.timeout,
      userVerification: provider.userVerification,
    })
    await setChallenge(ctx, provider, { provider: provider.id, action: "authenticate", challenge: options.challenge })
    return { ...json({ action: "authenticate", options }, 200, noStore), cookies: ctx.setCookies }
  }

  const existing = decided.signedIn ? await adapter.listAuthenticatorsByUserId(decided.user.id) : []
  const userName = decided.signedIn ? decided.user.email : decided.email
  const options = await lib.generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName,
    userDisplayName: (decided.signedIn ? decided.user.name : null) || userName,
    timeout: provider.timeout,
    attestationType: "none",
    excludeCredentials: descriptors(existing),
    authenticatorSelection: {
      residentKey: provider.residentKey,
      requireResidentKey: provider.residentKey === "required",
      userVerification: provider.userVerification,
    },
  })
  await setChallenge(ctx, provider, {
    provider: provider.id,
    action: "register",
    challenge: options.challenge,
    ...(decided.signedIn ? { userId: decided.user.id } : { email: decided.email }),
  })
  return { ...json({ action: "register", options }, 200, noStore), cookies: ctx.setCookies }
}
