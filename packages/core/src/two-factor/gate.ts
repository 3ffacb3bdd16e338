/**
 * Whether a sign-in asks for a second factor: the decision `account/sign-in.ts` takes for every
 * kind, once it knows the user. It asks when two-factor sign-in is on, the user has a second
 * factor, and nothing stands in for it:
 * - the provider does not ask (`secondFactor: false`, or its function says no, e.g. an identity
 *   provider that asked for its own second factor);
 * - a passkey with user verification, which is two factors in itself (something held, something
 *   known or been);
 * - the browser is remembered for the user (`remember.ts`).
 *
 * A browser already signed in as the user is asked like any other: a first factor alone must not
 * turn an old session into a fresh one (step-up), nor link a new way in to it.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { AdapterTwoFactor } from "./storage.js"
import type { VerifiedIdentity } from "../account/identity.js"
import type { RequestContext } from "../http/context.js"
import type { Account, AuthFactor, Profile, User } from "../types.js"
import { isRememberedDevice } from "./remember.js"
import { storedTwoFactor } from "./storage.js"

/** The gate's answer: ask for `stored`, or go on with these factors. */
export type GateDecision = { ask: AdapterTwoFactor } | { factors: AuthFactor[] }

/** The first factor of a sign-in, as sessions record it. */
export function firstFactor(identity: VerifiedIdentity): AuthFactor {
  return identity.provider.type
}

export async function secondFactorGate(
  ctx: RequestContext,
  identity: VerifiedIdentity,
  signIn: { user: User | AdapterUser; account: Account | null; profile?: Profile },
): Promise<GateDecision> {
  const first = firstFactor(identity)
  const { twoFactor } = ctx.config
  const userId = signIn.user.id
  if (!twoFactor || userId === undefined) return { factors: [first] }
  if ((identity.kind === "passkey" || identity.kind === "new-passkey") && identity.userVerified) return { factors: [first] }
  const stored = await storedTwoFactor(twoFactor.adapter, String(userId))
  if (!stored) return { factors: [first] }
  const asks = identity.provider.config.secondFactor ?? true
  if (asks === false || (typeof asks === "function" && !(await asks(signIn)))) return { factors: [first] }
  if (await isRememberedDevice(ctx, twoFactor, stored)) return { factors: [first, "remembered-device"] }
  return { ask: stored }
}
