/**
 * A capability built into Sesame, as the core's hubs read it (issue 32): its endpoints' rows, its
 * options, checks and adapter needs, its cookies and texts, the provider kinds it brings, and its
 * hooks into the flows, so that the hubs name no capability and a new one is a folder and a line
 * in the registration list (`registry.ts`). Each capability's folder has a `feature.ts` that
 * declares one.
 *
 * The plugin API (`types.ts`) is what an app's modules declare; a built-in feature may also take
 * part where an app's module may not (its endpoints name providers, its pages are the built-in
 * pages, its options are the configuration's own), which is why it has an interface of its own.
 *
 * @module
 */
import type { RateLimitFamily, Routes } from "./route.js"
import type { ResolvedConfig } from "../config/resolve.js"
import type { Incoming } from "../http/incoming.js"
import type { AdapterRequirement, CheckedAdapter } from "../adapters/wrap.js"
import type { WarningCode } from "../logger.js"
import type { FormWidget, GuardedForm, SignInPart } from "../pages/section.js"
import type { Catalogues, Messages } from "../pages/messages.js"
import type { Env } from "../config/env.js"
import type { RequestContext } from "../http/context.js"
import type { CookieDeclaration } from "../http/cookies.js"
import type { ClientAddressRule } from "../http/client-ip.js"
import type { VerifiedIdentity } from "../account/identity.js"
import type { AdapterUser } from "../adapters/types.js"
import type { InternalResponse } from "../http/response.js"
import type { PasswordResetOutcome, UserFacts } from "./types.js"
import type { Account, AuthConfig, AuthFactor, ExperimentalOptions, Profile, Provider, ProviderType, SessionOptions, SignInCallbackParams, User } from "../types.js"

/** What a feature's options are resolved with: the configuration and what the core made of it first. */
export interface FeatureInput {
  readonly config: AuthConfig
  /** The adapter, checked; undefined without one. */
  readonly adapter: CheckedAdapter | undefined
  readonly session: Readonly<SessionOptions>
  /** Newest first. */
  readonly secrets: readonly string[]
  /** Every configured provider, those left out for missing settings too. */
  readonly providers: readonly Provider[]
  /** The environment (read by `config/env.ts`'s readers only). */
  readonly env: Env
  /** Adds a start-up warning. */
  warn(code: WarningCode): void
}

/** A part of a capability and the adapter methods it calls. */
export type FeatureNeed = readonly [feature: string, methods: readonly AdapterRequirement[]]

/**
 * The built-in capabilities' settings, by their key on the resolved configuration. Each
 * capability's `feature.ts` adds its own entry (`declare module "../modules/feature.js"`), so the
 * resolved configuration's type names none of them.
 */
export interface FeatureSettingsMap {}

/** The resolved configuration's fields for the built-in capabilities' settings: undefined when one is off. */
export type FeatureSettings = { readonly [K in keyof FeatureSettingsMap]: FeatureSettingsMap[K] | undefined }

/** What a provider kind's resolution reads besides the provider's options. */
export interface ProviderKindContext {
  /** The provider's display name (its `name`, or its id). */
  readonly name: string
  readonly env: Env
  readonly experimental: ExperimentalOptions
  /** How per-client limits find the client's address (`trustedProxy`, `http/client-ip.ts`). */
  readonly clientAddress: ClientAddressRule
  /** The configuration's secrets, newest first. */
  readonly secrets: readonly string[]
}

/** A provider checked and with its defaults, before the adapter is attached. */
export interface UnboundProvider {
  /** A kind a capability brings: never one of the core's (`oauth`, `oidc`, `credentials`). */
  readonly type: Exclude<ProviderType, "oauth" | "oidc" | "credentials">
  readonly id: string
  readonly name: string
  /** The options, with their defaults. */
  readonly config: Provider
}

/**
 * A kind of provider a capability brings (`email`, `password`, `webauthn`). Each stores something,
 * so each needs an adapter. Its functions take the provider of their own kind (the core routes
 * each provider to its kind by `type`).
 */
export interface ProviderKind {
  /** Checks a provider's options (an `AuthError` names what is wrong) and applies its defaults. */
  resolve(provider: never, context: ProviderKindContext): UnboundProvider
  /** The provider as the request path uses it, with the adapter attached; without `bind`, the adapter is all it gets. */
  bind?(provider: never, adapter: CheckedAdapter): { readonly type: ProviderType; readonly id: string }
  /** The adapter methods a provider of this kind calls, with what for. */
  needs(provider: never, session: Readonly<SessionOptions>): readonly FeatureNeed[]
  /** Its part of the sign-in page; a kind without one is left off the page. */
  readonly signIn?: SignInPart
}

/** Who signs in, as a sign-in's gate sees it. */
export interface GatedSignIn {
  user: User | AdapterUser
  account: Account | null
  profile?: Profile
}

/**
 * A step of every sign-in between the decision (which user) and the session (`account/sign-in.ts`):
 * the second factor is one. At most one feature has one.
 */
export interface SignInGate {
  /**
   * Whether the sign-in must stop to ask for something (`ask`, handed back to {@link ask}), or goes
   * on with these factors (the first factor's kind, and what the gate adds).
   */
  decide(ctx: RequestContext, identity: VerifiedIdentity, signIn: GatedSignIn): Promise<{ ask: unknown } | { factors: AuthFactor[] }>
  /**
   * Stops the sign-in to ask: the answer the browser gets; the gate completes the sign-in later.
   * `callback`: what the `signIn` callback is to be asked then, when it has not been asked yet.
   */
  ask(ctx: RequestContext, identity: VerifiedIdentity, result: GatedSignIn & { isNewUser: boolean }, asked: never, callback: SignInCallbackParams | undefined): Promise<InternalResponse>
}

/**
 * A check of a form's post before its flow does any work, and its part of the forms it protects
 * (the captcha). At most one feature has one.
 */
export interface FormGuard {
  /** Undefined: the flow goes on; else the answer to send instead (the form again with the reason, or JSON). */
  check(ctx: RequestContext, form: GuardedForm): Promise<InternalResponse | undefined>
  /** Its widget in each form it protects. */
  widgets(ctx: RequestContext): Readonly<Partial<Record<GuardedForm, FormWidget>>>
}

/**
 * Limits on how many requests a client makes (the rate limits): each answers the request in its
 * place when the client is over its limit, else undefined. At most one feature has one.
 */
export interface RequestLimiter {
  /** For an endpoint's request, counted in `family` (its row's). */
  request(ctx: RequestContext, family: RateLimitFamily): Promise<InternalResponse | undefined>
  /** For a request to a module's machine-to-machine API (`SesameModule.services`). */
  service(config: ResolvedConfig, incoming: Incoming): Promise<InternalResponse | undefined>
}

/** What the resolved configuration keeps of the features' hooks, for the flows below the hubs. */
export interface FeatureHooks {
  /** The sign-in gate of a feature that is on. */
  readonly signInGate: SignInGate | undefined
  /** What runs before anything reads the session, of the features that are on, in order (usually none). */
  readonly beforeRequest: readonly ((ctx: RequestContext) => Promise<void>)[]
  /**
   * Run when all of a user's sessions end at once (signing out everywhere, a new password), with the
   * adapter or the transaction that ends them.
   */
  readonly sessionsEnded: readonly ((adapter: CheckedAdapter, userId: string) => Promise<void>)[]
  /** The features that are on and say what they keep for a user (`ModuleRequest.aboutUser`). */
  readonly aboutUser: readonly { readonly id: string; aboutUser(ctx: RequestContext, userId: string): Promise<UserFacts | null> }[]
  /** Emails a user a password reset link on another's word (`ModuleRequest.sendPasswordReset`), when a feature can. */
  readonly sendPasswordReset: ((ctx: RequestContext, user: { id: string; email: string }) => Promise<PasswordResetOutcome>) | undefined
  /** The rate limits, when a feature that keeps them is on. */
  readonly limiter: RequestLimiter | undefined
  /** The guard of the forms that start a flow (the captcha), of a feature that is on. */
  readonly formGuard: FormGuard | undefined
}

export interface Feature<Key extends keyof FeatureSettingsMap = keyof FeatureSettingsMap> {
  /** The capability, as the start-up log and errors name it. */
  readonly id: string
  /** Its endpoints' rows in the dispatcher's table (`route.ts`). */
  readonly routes?: Routes
  /** Its cookies, by role (`http/cookies.ts` applies the policy; the `cookies` option renames them). */
  readonly cookies?: Readonly<Record<string, CookieDeclaration>>
  /**
   * Its options, checked and with their defaults, kept on the resolved configuration under `key`
   * (undefined: the capability is off). Throws a `TypeError` naming the option for a mistake (the
   * `Configuration` error), or an `AuthError` of its own.
   */
  readonly settings?: { readonly key: Key; resolve(input: FeatureInput): FeatureSettingsMap[Key] | undefined }
  /**
   * The texts of its pages and emails, in every built-in language (its `messages.ts`; its keys are
   * part of `Messages` through `registry.ts`'s `BuiltInMessages`). Gathered with the configuration
   * whether or not the capability is on, under the app's `messages` overrides.
   */
  readonly messages?: Catalogues<Partial<Messages>>
  /** The kinds of provider it brings, by `type`. */
  readonly providerKinds?: Readonly<Partial<Record<ProviderType, ProviderKind>>>
  /**
   * Runs before anything reads the session, for every request to an endpoint and every server
   * function's context (with a settings key, only when its settings are on).
   */
  beforeRequest?(ctx: RequestContext): Promise<void>
  /** Its step in every sign-in (with a settings key, only when its settings are on). */
  readonly signInGate?: SignInGate
  /**
   * What it forgets when all of a user's sessions end at once (see {@link FeatureHooks}). Runs
   * whether its settings are on or not.
   */
  sessionsEnded?(adapter: CheckedAdapter, userId: string): Promise<void>
  /** What it keeps for the user `userId`, for an admin's view of them (with a settings key, only when its settings are on). */
  aboutUser?(ctx: RequestContext, userId: string): Promise<UserFacts | null>
  /** Emails `user` a link to set a new password, as its forgotten-password form does (at most one feature has one). */
  sendPasswordReset?(ctx: RequestContext, user: { id: string; email: string }): Promise<PasswordResetOutcome>
  /** Its limits on each client's requests (with a settings key, only when its settings are on; at most one feature has them). */
  readonly limiter?: RequestLimiter
  /** Its check of the forms that start a flow, and its part of them (with a settings key, only when its settings are on; at most one feature has one). */
  readonly formGuard?: FormGuard
  /** Checks of the configuration that need no settings kept (throws as `settings.resolve` does). */
  check?(input: FeatureInput): void
  /**
   * What the configuration could use of it that works only with more adapter methods than the
   * spec's: the start-up log lists those the adapter lacks (each fails alone, when used).
   */
  optional?(input: FeatureInput): readonly FeatureNeed[]
}
