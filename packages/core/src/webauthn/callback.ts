/**
 * `POST callback/:webauthn-provider` with `action` and `data` (the browser's response): verifies
 * the response against the challenge cookie with `@simplewebauthn/server`, then signs the user in.
 *
 * - **authenticate**: the credential must be stored (`getAuthenticator`), its signature must verify
 *   with the stored public key over this challenge, this origin and this RP ID, and its signature
 *   counter must have gone up when the authenticator keeps one (synced passkeys report 0). The
 *   new counter is stored (`updateAuthenticatorCounter`) before anything else, so a response can
 *   never be counted twice; then the account (`getAccount`) names the user.
 * - **register**: the attestation must verify over this challenge, origin and RP ID; the credential
 *   must be new. Whose passkey it is, is `account/passkeys.ts`'s decision (`newPasskeyOwner`). The
 *   account (`type: "webauthn"`, the credential id as `providerAccountId`) and its authenticator
 *   are written together by the sign-in decision, with the user when there is one to create.
 *
 * Either way the verified passkey goes to the sign-in decision (`account/sign-in.ts`). Every
 * failure to verify is a `WebAuthnVerificationError`, and no session starts. No CSRF token is
 * needed: the SameSite=Lax, sealed challenge cookie does its job, since a cross-site POST does not
 * carry it, and a response is only valid for the challenge it signs.
 *
 * @module
 */
import { newPasskeyOwner } from "../account/passkeys.js"
import { signIn } from "../account/sign-in.js"
import type { AdapterAuthenticator } from "../adapters/types.js"
import { WebAuthnVerificationError } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { useChallenge, type Challenge } from "./challenge.js"
import { fromBase64, storedCredentialId, toBase64 } from "./credential-id.js"
import { simpleWebAuthn } from "./library.js"
import type { PasskeyProvider } from "./provider.js"
import { relyingParty, type ResolvedRelyingParty } from "./relying-party.js"
import { authenticationResponse, postedCeremony, registrationResponse } from "./response.js"

/** Runs a verification step of the library; anything it throws is a verification failure. */
async function verifying<T>(step: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw new WebAuthnVerificationError(`The passkey response did not verify (${step}).`, { cause: error })
  }
}

export async function webAuthnCallback(ctx: RequestContext, provider: PasskeyProvider): Promise<InternalResponse> {
  // The challenge is read (and its cookie deleted) first, so that a request that fails in any way
  // still uses it up.
  const challenge = await useChallenge(ctx, provider)
  const action = postedCeremony(ctx.body.action)
  if (action !== challenge.action) {
    throw new WebAuthnVerificationError(`The challenge was made to ${challenge.action}, not to ${action}.`, { cause: { provider: provider.id } })
  }
  const rp = relyingParty(ctx, provider)
  return action === "authenticate" ? authenticate(ctx, provider, challenge, rp) : register(ctx, provider, challenge, rp)
}

async function authenticate(ctx: RequestContext, provider: PasskeyProvider, challenge: Challenge, rp: ResolvedRelyingParty): Promise<InternalResponse> {
  const { adapter } = provider
  const response = authenticationResponse(ctx.body.data)
  const credentialID = storedCredentialId(response.id)
  const stored = credentialID ? await adapter.getAuthenticator(credentialID) : null
  const publicKey = stored ? fromBase64(stored.credentialPublicKey) : null
  if (!credentialID || !stored || !publicKey) {
    throw new WebAuthnVerificationError("The passkey is not registered here.", { cause: { provider: provider.id } })
  }
  const lib = await simpleWebAuthn()
  const verification = await verifying("authentication", () =>
    lib.verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: response.id,
        publicKey: publicKey as Uint8Array<ArrayBuffer>,
        counter: stored.counter,
        ...(stored.transports ? { transports: stored.transports.split(",") } : {}),
      },
      requireUserVerification: provider.config.userVerification === "required",
    }),
  )
  if (!verification.verified) throw new WebAuthnVerificationError("The passkey's signature did not verify.", { cause: { provider: provider.id } })
  await adapter.updateAuthenticatorCounter(credentialID, verification.authenticationInfo.newCounter)

  const linkedAccount = await adapter.getAccount(stored.providerAccountId, provider.id)
  const user = linkedAccount && linkedAccount.userId === stored.userId ? await adapter.getUser(linkedAccount.userId) : null
  if (!user) {
    throw new WebAuthnVerificationError(`The passkey has no account with provider "${provider.id}".`, { cause: { provider: provider.id } })
  }
  return signIn(ctx, { kind: "passkey", provider, user, providerAccountId: stored.providerAccountId, userVerified: verification.authenticationInfo.userVerified })
}

async function register(ctx: RequestContext, provider: PasskeyProvider, challenge: Challenge, rp: ResolvedRelyingParty): Promise<InternalResponse> {
  const { adapter } = provider
  const response = registrationResponse(ctx.body.data)
  const lib = await simpleWebAuthn()
  const verification = await verifying("registration", () =>
    lib.verifyRegistrationResponse({
      response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: provider.config.userVerification === "required",
    }),
  )
  if (!verification.verified) throw new WebAuthnVerificationError("The passkey's attestation did not verify.", { cause: { provider: provider.id } })
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo
  const credentialID = storedCredentialId(credential.id)
  if (!credentialID) throw new WebAuthnVerificationError("The passkey's credential id is not base64url.", { cause: { provider: provider.id } })
  if ((await adapter.getAuthenticator(credentialID)) || (await adapter.getAccount(credentialID, provider.id))) {
    throw new WebAuthnVerificationError("This passkey is already registered.", { cause: { provider: provider.id } })
  }

  const user = await newPasskeyOwner(ctx, provider, challenge)
  const authenticator = (userId: string): AdapterAuthenticator => ({
    credentialID,
    userId,
    providerAccountId: credentialID,
    credentialPublicKey: toBase64(credential.publicKey),
    counter: credential.counter,
    credentialDeviceType,
    credentialBackedUp,
    transports: credential.transports?.length ? credential.transports.join(",") : null,
    name: null,
    createdAt: new Date(),
  })
  return signIn(ctx, { kind: "new-passkey", provider, user, credentialID, authenticator, userVerified: verification.registrationInfo.userVerified })
}
