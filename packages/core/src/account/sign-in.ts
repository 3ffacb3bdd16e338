/**
 * The one entry of every sign-in: `signIn(ctx, identity)` takes what a provider verified and runs
 * the same steps for every kind:
 *
 * 1. find the user the identity is already linked to (so that the `signIn` callback sees a
 *    returning account's stored user),
 * 2. ask the `signIn` callback (`authorize.ts`), which may refuse or redirect elsewhere,
 * 3. decide which user signs in, creating or linking on the way (`decide.ts`),
 * 4. pass the configuration's sign-in gate (`config.hooks.signInGate`: the second factor, asked
 *    when the user has one; the sign-in then waits, and the gate's feature finishes it),
 * 5. start the session, send `signIn`, redirect (`complete.ts`).
 *
 * When the identity names a stored user whom the gate stops, step 2 moves after the gate, so that
 * the `signIn` callback runs once, for a sign-in that completes.
 *
 * What differs per kind is the table {@link attempts}: the account it names, what the callback
 * sees, and which rule decides. A new way to sign in, or a step that must run for every sign-in,
 * plugs in here.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import { AccessDenied, AccountNotLinked } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import type { GatedSignIn } from "../modules/feature.js"
import { moduleAdmits } from "../modules/providers.js"
import { currentActing } from "../session/acting.js"
import type { ModuleSignIn } from "../modules/types.js"
import type { Account, Profile, SignInCallbackParams, User } from "../types.js"
import { checkSignIn } from "./authorize.js"
import { completeSignIn } from "./complete.js"
import { decideForAccount, decideForCredentials, decideForEmail, linkedUser, type Decision } from "./decide.js"
import type { EmailIdentity, VerifiedIdentity } from "./identity.js"

/** One sign-in's steps, as its kind shapes them. */
interface Attempt {
  /** What the `signIn` callback receives. */
  callback: SignInCallbackParams
  /** The decision rule of this kind. */
  decide: () => Promise<Decision>
  /** The account the session and the `signIn` event are told about, once the user is known. */
  account: (decision: Decision) => Account
  profile?: Profile
  /** The stored user the identity already names, before any decision. */
  known?: AdapterUser
}

type Attempts = { [K in VerifiedIdentity["kind"]]: (ctx: RequestContext, identity: Extract<VerifiedIdentity, { kind: K }>) => Promise<Attempt> }

const attempts: Attempts = {
  async credentials(ctx, { provider, user, fields }) {
    const account: Account = { provider: provider.id, type: "credentials", providerAccountId: user.id }
    // `authorize` may name a stored user (whom the gate may stop); only a gate needs to know.
    const stored = ctx.config.hooks.signInGate && ctx.config.adapter ? await ctx.config.adapter.getUser(user.id) : null
    return {
      ...(stored ? { known: stored } : {}),
      callback: { user, account, credentials: fields },
      decide: () => decideForCredentials(ctx, provider, user),
      account: (decision) => ({ ...account, providerAccountId: String(decision.user.id) }),
    }
  },

  async oauth(ctx, { provider, user, profile, tokens, emailVerified }) {
    const ids = { provider: provider.id, type: provider.type, providerAccountId: user.id }
    const account: Account = { ...tokens, ...ids }
    const linked = await linkedUser(ctx, ids)
    return {
      ...(linked ? { known: linked } : {}),
      callback: { user: linked ?? user, account, profile },
      decide: () =>
        decideForAccount(ctx, {
          user,
          account: { ...provider.account(tokens), ...ids },
          linked,
          allowDangerousEmailAccountLinking: provider.allowDangerousEmailAccountLinking,
          emailVerified,
          boundToBrowser: provider.checks.size > 0,
        }),
      account: () => account,
      profile,
    }
  },

  async email(ctx, identity) {
    const { user, account, stored } = await emailSignIn(identity)
    return {
      ...(stored ? { known: stored } : {}),
      callback: { user, account, email: {} },
      decide: () => decideForEmail(ctx, identity.provider.adapter, identity.email, identity.provider.id),
      account: (decision) => ({ ...account, userId: decision.user.id }),
    }
  },

  async passkey(ctx, { provider, user, providerAccountId }) {
    const account: Account = { provider: provider.id, type: "webauthn", providerAccountId }
    return {
      known: user,
      callback: { user, account },
      decide: () => decideForAccount(ctx, { user, account, linked: user, notLinked: AccountNotLinked }),
      account: () => account,
    }
  },

  async password(_ctx, { provider, user, isNewUser, recheck }) {
    const account: Account = { provider: provider.id, type: "password", providerAccountId: user.id }
    return {
      known: user,
      callback: { user, account },
      // The provider found the stored user; nothing is created or linked here.
      decide: async () => ({ user, isNewUser, ...(recheck ? { recheck } : {}) }),
      account: () => account,
    }
  },

  async "new-passkey"(ctx, { provider, user, credentialID, authenticator }) {
    const account: Account = { provider: provider.id, type: "webauthn", providerAccountId: credentialID }
    return {
      callback: { user, account },
      decide: () =>
        decideForAccount(ctx, {
          user,
          account,
          linked: null,
          notLinked: AccountNotLinked,
          onLink: async (tx, userId) => {
            await tx.createAuthenticator(authenticator(userId))
          },
        }),
      account: (decision) => ({ ...account, userId: String(decision.user.id) }),
    }
  },
}

/** Throws `AccessDenied` when the module whose provider signs this person in refuses (`ModuleProviders.admit`). */
async function admittedByModule(ctx: RequestContext, identity: VerifiedIdentity, signIn: ModuleSignIn): Promise<void> {
  let admitted: boolean
  try {
    admitted = await moduleAdmits(ctx, identity.provider.id, signIn)
  } catch (error) {
    throw new AccessDenied(error instanceof Error ? error : new Error(String(error)))
  }
  if (!admitted) throw new AccessDenied(`The plugin of provider "${identity.provider.id}" refused the sign-in.`)
}

/** Signs in the person `identity` describes, or throws the error that ends the flow. */
export async function signIn(ctx: RequestContext, identity: VerifiedIdentity): Promise<InternalResponse> {
  // Someone acting as a user (an admin) is that user for nothing but looking: a sign-in from there
  // would link an account to the user and leave a plain, recent session of theirs (`acting.ts`).
  if (await currentActing(ctx)) throw new AccessDenied("A sign-in from a session acting as another user is refused: stop acting first.")
  const attempt = await (attempts[identity.kind] as (ctx: RequestContext, identity: VerifiedIdentity) => Promise<Attempt>)(ctx, identity)
  if (identity.kind === "oauth") {
    const { user, account, profile } = attempt.callback
    await admittedByModule(ctx, identity, { user, account: account!, ...(profile ? { profile } : {}), linked: attempt.known !== undefined })
  }
  // A verified user is who signs in (an unverified one may be set aside by the decision, second
  // factor and all, so only the decision's user can be asked).
  const known = attempt.known?.emailVerified ? attempt.known : undefined
  const gated = ctx.config.hooks.signInGate
  const passGate = (signIn: GatedSignIn) => (gated ? gated.decide(ctx, identity, signIn) : Promise.resolve({ factors: [identity.provider.type] }))
  const early = known ? await passGate({ ...attempt.callback, user: known }) : undefined
  const callbackLater = !!early && "ask" in early
  if (!callbackLater) {
    const redirect = await checkSignIn(ctx, attempt.callback)
    if (redirect) return { redirect, cookies: ctx.setCookies }
  }
  const decision = await attempt.decide()
  const result = {
    user: decision.user,
    account: attempt.account(decision),
    ...(attempt.profile ? { profile: attempt.profile } : {}),
    isNewUser: decision.isNewUser,
  }
  // Asked whatever `isNewUser` says: a confirmation link reports a first sign-in as new, for a
  // user who may have turned a second factor on before confirming.
  const gate = early && String(decision.user.id) === known!.id ? early : await passGate(result)
  if ("ask" in gate) return gated!.ask(ctx, identity, result, gate.ask as never, callbackLater ? attempt.callback : undefined)
  if (callbackLater) {
    const redirect = await checkSignIn(ctx, attempt.callback)
    if (redirect) return { redirect, cookies: ctx.setCookies }
  }
  return completeSignIn(ctx, { ...result, factors: gate.factors, ...(decision.recheck ? { recheck: decision.recheck } : {}) })
}

/**
 * Who an email sign-in is for, as the `signIn` callback sees it: the stored user when the address
 * has one, else a user that does not exist yet (nothing is written here), and an account whose
 * `providerAccountId` is the address.
 */
async function emailSignIn({ provider, email }: Omit<EmailIdentity, "kind">): Promise<{ user: User | AdapterUser; account: Account; stored: AdapterUser | null }> {
  const stored = await provider.adapter.getUserByEmail(email)
  const user: User | AdapterUser = stored ?? { id: crypto.randomUUID(), email, emailVerified: null }
  return { user, account: { provider: provider.id, type: "email", providerAccountId: email }, stored }
}

/**
 * Whether a sign-in link may be sent to `email`: the `signIn` callback asked with
 * `email.verificationRequest`. Returns nothing to go on, or where to redirect instead; throws
 * `AccessDenied` when refused.
 */
export async function checkLinkRequest(ctx: RequestContext, identity: Omit<EmailIdentity, "kind">): Promise<string | undefined> {
  const { user, account } = await emailSignIn(identity)
  return checkSignIn(ctx, { user, account, email: { verificationRequest: true } })
}
