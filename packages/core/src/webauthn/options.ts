/**
 * `GET webauthn-options/:provider?action=&email=`: the options of a passkey ceremony, and the
 * sealed challenge cookie that the callback checks the response against. Which ceremony runs for
 * whom is decided in `account/passkeys.ts`; a refusal there, or an `action` that is neither
 * `authenticate` nor `register` (`400 {"error":"Invalid action"}`), is a `BadRequest` whose body
 * adds a `message` saying what was wrong.
 *
 * Answering "authenticate" or "register" for an email tells the caller whether the address has an
 * account, as Auth.js does; an app that must not reveal that offers passkeys without an email
 * field (discoverable credentials only) and registers them for signed-in users.
 *
 * @module
 */
import { passkeyCeremony } from "../account/passkeys.js"
import type { AdapterAuthenticator } from "../adapters/types.js"
import { parseEmail } from "../email/normalize.js"
import { BadRequest } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { json, noStore, type InternalResponse } from "../http/response.js"
import { setChallenge } from "./challenge.js"
import { wireCredentialId } from "./credential-id.js"
import { simpleWebAuthn } from "./library.js"
import type { PasskeyProvider } from "./provider.js"
import { relyingParty } from "./relying-party.js"

function descriptors(authenticators: readonly AdapterAuthenticator[]) {
  return authenticators.map((a) => ({
    id: wireCredentialId(a.credentialID),
    ...(a.transports ? { transports: a.transports.split(",").filter(Boolean) } : {}),
  }))
}

export async function webAuthnOptions(ctx: RequestContext, provider: PasskeyProvider): Promise<InternalResponse> {
  const { adapter, config } = provider
  const requested = ctx.query.action
  if (requested !== undefined && requested !== "authenticate" && requested !== "register") {
    throw new BadRequest('The `action` must be "authenticate" or "register".', 400, "Invalid action")
  }
  let email: string | undefined
  if (ctx.query.email !== undefined && ctx.query.email.trim() !== "") {
    // Normalised as email sign-in does, so that a look-alike (`ａlice@` in full-width letters) names
    // the same user as the address it imitates.
    email = parseEmail(ctx.query.email) ?? undefined
    if (!email) throw new BadRequest("The `email` is not an email address.", 400, "Invalid request")
  }
  const decided = await passkeyCeremony(ctx, adapter, requested, email)
  const lib = await simpleWebAuthn()
  const rp = relyingParty(ctx, provider)

  if (decided.action === "authenticate") {
    const known = decided.user ? await adapter.listAuthenticatorsByUserId(decided.user.id) : []
    const options = await lib.generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials: descriptors(known),
      timeout: config.timeout,
      userVerification: config.userVerification,
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
    timeout: config.timeout,
    attestationType: "none",
    excludeCredentials: descriptors(existing),
    authenticatorSelection: {
      residentKey: config.residentKey,
      requireResidentKey: config.residentKey === "required",
      userVerification: config.userVerification,
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
