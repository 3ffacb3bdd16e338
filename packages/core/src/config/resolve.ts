/**
 * Turns the user's configuration into a frozen, validated `ResolvedConfig`, once per configuration
 * object (the result is cached in a WeakMap keyed by that object). Nothing here looks at a request,
 * and the user's object is never modified.
 *
 * A configuration error is cached too: every request then answers with the `Configuration` error,
 * and the message (logged, never sent) names the option, what is wrong and how to fix it.
 *
 * @module
 */
import { checkAdapter, missingMethods, type AdapterRequirement, type CheckedAdapter } from "../adapters/wrap.js"
import type { Adapter } from "../adapters/types.js"
import { emit } from "../events.js"
import { checkPluginEvent, emitSecurity } from "../security-events.js"
import { providerEmail } from "../oauth/profile.js"
import { newUserFields, resolveUserFields, takenSessionKeys, type ResolvedUserFields } from "../user/fields.js"
import {
  AuthError,
  InvalidEndpoints,
  InvalidProvider,
  MissingAdapter,
  MissingAdapterMethods,
  MissingSecretError,
  UntrustedHost,
} from "../errors.js"
import { cookieProblem, defaultCookies, mergeCookies, type CookiesOptions, type PartialCookiesOptions } from "../http/cookies.js"
import { decode, encode, type JWTOptions } from "../jwt/index.js"
import { createLogger, type Logger, type WarningCode } from "../logger.js"
import type { MessageOverrides } from "../pages/messages.js"
import { databaseStrategy } from "../session/database.js"
import { jwtStrategy } from "../session/jwt.js"
import { deleteStoredUser } from "../account/delete.js"
import { storedSessionLive } from "../session/lifetime.js"
import { endUserSessions } from "../session/end-all.js"
import { resolveRevocation, type RevocationSettings } from "../session/revocation.js"
import type { SessionStrategy } from "../session/types.js"
import { skipCSRFCheck } from "../symbols.js"
import { isActionSegment } from "../http/request.js"
import { checkTrustedProxy, clientAddressRule, defaultTrustedProxy, type ClientAddressRule } from "../http/client-ip.js"
import { resolveModules, type ResolvedModules } from "../modules/resolve.js"
import type { ModuleUsers } from "../modules/types.js"
import { userInGoodStanding } from "../modules/standing.js"
import type { FeatureHooks, FeatureInput, FeatureNeed, FeatureSettings } from "../modules/feature.js"
import { builtInFeatures, builtInModelNames } from "../registry.js"
import { endpointNames } from "./features.js"
import type {
  AuthConfig,
  CallbacksOptions,
  EventCallbacks,
  ExperimentalOptions,
  PagesOptions,
  Provider,
  SessionOptions,
  Theme,
} from "../types.js"
import { resolveMessages, resolveTheme } from "./appearance.js"
import { isBasePath, normaliseBasePath } from "./base-path.js"
import { developmentSecret } from "./development-secret.js"
import { defaultAbsoluteMaxAge, defaultBasePath, defaultCallbacks, defaultMaxSignInAge, defaultGenerateSessionToken, defaultMaxAge, defaultUpdateAge } from "./defaults.js"
import { envFlag, envSecretEntries, envTrustedOrigins, envTrustHost, envUrl, isProduction, readEnv, type Env, type NamedSecret } from "./env.js"
import { bindProviders, providerKinds, resolveProviders, type ResolvedProvider } from "./providers.js"
import { trustedOrigins as parseTrustedOrigins, type TrustedOrigins } from "./origins.js"
import { secretWeakness } from "./secret-strength.js"

/**
 * The configuration after defaults, environment and validation. Frozen. The built-in capabilities'
 * settings (each undefined when it is off) are declared by their features (`modules/feature.ts`).
 */
export interface ResolvedConfig extends FeatureSettings {
  readonly basePath: string
  /** Newest first; never empty. */
  readonly secrets: readonly string[]
  /** The public URL from `SESAME_URL` / `AUTH_URL`, when set. */
  readonly publicUrl: URL | undefined
  /**
   * Where a request's origin comes from when there is no public URL: `proxy`, the `Host` and
   * `X-Forwarded-*` headers (the app said a proxy sets them); `loopback`, the `Host` header, for
   * loopback hosts only (nothing said, outside production). See `http/context.ts`.
   */
  readonly hostPolicy: "proxy" | "loopback"
  /**
   * The client's address from a request's headers and peer, by `trustedProxy`, whose default
   * follows an explicit `trustHost` or `AUTH_TRUST_HOST` (a hosting platform's default does not
   * count): what limits per client and the security events read (`http/client-ip.ts`).
   */
  readonly clientAddress: ClientAddressRule
  /**
   * Whether no secret is configured and the development secret is used (outside production; see
   * `development-secret.ts`). It serves loopback hosts only.
   */
  readonly generatedSecret: boolean
  /** Origins other than the app's own that it vouches for (`trustedOrigins`). */
  readonly trustedOrigins: TrustedOrigins
  /** The providers that can be used, by id, in the configured order (see `providers.ts` for those that cannot). */
  readonly providers: ReadonlyMap<string, ResolvedProvider>
  /** Providers left out because their settings are missing, by id, with the error that names them. */
  readonly unavailableProviders: ReadonlyMap<string, AuthError>
  /**
   * The adapter, for what uses it when there is one (linking provider accounts, checking marked JWT
   * sessions). Flows that cannot work without it take theirs from their provider or session strategy.
   */
  readonly adapter: CheckedAdapter | undefined
  readonly session: Readonly<SessionOptions>
  /** How sessions are kept: the JWT strategy, or the database strategy bound to the adapter. */
  readonly sessionStrategy: SessionStrategy
  /** JWT sessions that can be ended (`session.revocation`, `session/revocation.ts`); undefined when off. */
  readonly sessionRevocation: RevocationSettings | undefined
  readonly jwt: Readonly<JWTOptions>
  readonly callbacks: Readonly<CallbacksOptions>
  readonly events: Readonly<Partial<EventCallbacks>>
  readonly pages: Readonly<Partial<PagesOptions>>
  readonly theme: Readonly<Required<Theme>>
  readonly messages: MessageOverrides | undefined
  readonly logger: Logger
  readonly debug: boolean
  readonly skipCSRFCheck: boolean
  readonly useSecureCookies: boolean | undefined
  readonly experimental: Readonly<ExperimentalOptions>
  readonly redirectProxyUrl: string | undefined
  /** The built-in capabilities' hooks into the flows (the sign-in gate, what ends with all sessions). */
  readonly hooks: FeatureHooks
  /** The app's user fields (`user.fields`), checked. */
  readonly userFields: ResolvedUserFields
  /** The feature modules (`plugins`), as the dispatcher, the events and the server functions read them. */
  readonly modules: ResolvedModules
  /** The cookie names and options for secure or plain cookies. Throws a configuration error. */
  cookies(secure: boolean): CookiesOptions
}

/** What `resolveConfig` returns: a configuration, or the error with what is needed to report it. */
export type Resolution =
  | { ok: true; config: ResolvedConfig }
  | {
      ok: false
      error: AuthError
      basePath: string
      pages: Partial<PagesOptions>
      logger: Logger
      /** The origin of `AUTH_URL` when it is a valid URL: the only origin an error answer may name. */
      publicOrigin: string | undefined
    }

const cache = new WeakMap<object, Resolution>()

class ConfigError extends Error {
  constructor(readonly error: AuthError) {
    super(error.message)
  }
}

function fail(error: AuthError): never {
  throw new ConfigError(error)
}

/** Resolves `config` (cached per object). */
export function resolveConfig(config: AuthConfig, env: Env = readEnv()): Resolution {
  const cached = cache.get(config)
  if (cached) return cached
  const resolution = resolveUncached(config, env)
  cache.set(config, resolution)
  return resolution
}

function resolveUncached(config: AuthConfig, env: Env): Resolution {
  const logger = createLogger(!!config?.debug, config?.logger)
  let basePath = defaultBasePath
  const pages = config && typeof config.pages === "object" && config.pages ? { ...config.pages } : {}
  try {
    if (!config || typeof config !== "object") {
      fail(new InvalidProvider("The configuration must be an object with at least `providers`."))
    }
    const warnings: WarningCode[] = []
    const publicUrl = parsePublicUrl(env)
    basePath = resolveBasePath(config.basePath, publicUrl, warnings)
    const { secrets, generated } = resolveSecrets(config.secret, env, warnings)
    const trustHost = config.trustHost ?? envTrustHost(env)
    if (!publicUrl && trustHost !== true && (trustHost === false || isProduction(env))) {
      fail(
        new UntrustedHost(
          "The request's host is not trusted. Set AUTH_URL (or SESAME_URL) to the app's public URL, or set `trustHost: true` (AUTH_TRUST_HOST=true) when a proxy you control sets the Host and X-Forwarded-* headers.",
        ),
      )
    }
    const hostPolicy = trustHost === true ? "proxy" : "loopback"
    const trusted = parseTrustedOrigins(config.trustedOrigins ?? envTrustedOrigins(env))
    if (typeof trusted === "string") fail(new InvalidEndpoints(trusted))
    if (trusted.shared.length > 0) warnings.push("trusted-origin-shared-domain")
    const experimental = { enableWebAuthn: false, ...config.experimental }
    const redirectProxyUrl = config.redirectProxyUrl ?? env.AUTH_REDIRECT_PROXY_URL
    if (redirectProxyUrl !== undefined && !isHttpUrl(redirectProxyUrl)) {
      fail(new InvalidEndpoints(`\`redirectProxyUrl\` (or AUTH_REDIRECT_PROXY_URL) must be an http(s) URL; got "${redirectProxyUrl}".`))
    }
    // Explicit trust only: a hosting platform's default says nothing about the proxies in front of the app.
    const trustProxy = config.trustHost ?? envFlag(env.SESAME_TRUST_HOST ?? env.AUTH_TRUST_HOST) ?? false
    const clientAddress = clientAddressRule(asConfigError(() => checkTrustedProxy(config.trustedProxy)) ?? defaultTrustedProxy(trustProxy))
    const resolvedProviders = resolveProviders(config.providers, { env, experimental, clientAddress, redirectProxyUrl, secrets })
    const { unavailable } = resolvedProviders
    if (resolvedProviders.available.some((p) => (p.type === "oauth" || p.type === "oidc") && p.checks.size === 0)) warnings.push("oauth-checks-none")
    if (experimental.enableWebAuthn) warnings.push("experimental-webauthn")
    const session = resolveSession(config.session, config.adapter)
    const userFields = asConfigError(() => resolveUserFields(config.user))
    const adapter = config.adapter ? checkAdapter(asConfigError(() => withUserFields(config.adapter!, userFields, warnings)), logger) : undefined
    // Every provider, unavailable ones too: what the adapter lacks does not depend on the environment.
    checkAdapterCoverage(config.adapter, session, resolvedProviders.all)
    const providers = bindProviders(resolvedProviders, adapter, session.strategy === "database")
    // Said at start rather than only when someone's right password is refused (`decideForCredentials`).
    if ([...providers.values()].some((p) => p.type === "credentials" && p.users && p.config.createUser === undefined)) {
      warnings.push("credentials-users-not-created")
    }
    const featureInput: FeatureInput = { config, adapter, session, secrets, providers: resolvedProviders.all, env, warn: (code) => warnings.push(code) }
    const settings = resolveFeatures(featureInput)
    const hooks = featureHooks(settings)
    const degraded = config.adapter ? degradedFeatures(config.adapter, featureInput) : []
    if (degraded.length > 0) {
      warnings.push("adapter-optional-methods-missing")
      logger.debug("config: features off for want of adapter methods", { features: degraded })
    }
    const modules = asConfigError(() =>
      resolveModules(config.plugins, config.adapter, logger, {
        path: (segment) => isActionSegment(segment, endpointNames()),
        models: builtInModelNames,
        sessionKeys: takenSessionKeys(userFields),
      }, secrets, adapter && moduleUsers(adapter, userFields, () => resolved), settings.apiTokens?.keys, (event) => {
        // An event handler's context: no request, so no IP, user agent or signed-in actor.
        const input = checkPluginEvent(event)
        return emitSecurity(resolved, undefined, { ...input, actorId: input.actorId ?? null })
      }),
    )
    if (modules.off.size > 0) warnings.push("plugin-storage-missing")
    const sessionRevocation = asConfigError(() => resolveRevocation(session, !!adapter?.store))
    // The red team's case: a password reset that leaves the thief's JWT session alone.
    if (session.strategy === "jwt" && adapter?.store && session.revocation === undefined && resolvedProviders.all.some((p) => p.type === "password")) {
      warnings.push("jwt-sessions-not-revocable")
    }
    const sessionStrategy = session.strategy === "jwt" ? jwtStrategy : databaseStrategy(adapter ?? fail(new MissingAdapter("Database sessions need an `adapter`.")))
    const callbacks = resolveCallbacks(config.callbacks)
    const jwt: JWTOptions = {
      maxAge: config.jwt?.maxAge ?? session.maxAge,
      encode: config.jwt?.encode ?? encode,
      decode: config.jwt?.decode ?? decode,
    }
    checkPositive("jwt.maxAge", jwt.maxAge)
    checkPages(pages)
    if (config.debug) warnings.push("debug-enabled")

    const cookieCache = new Map<boolean, CookiesOptions | AuthError>()
    const cookies = (secure: boolean): CookiesOptions => {
      let entry = cookieCache.get(secure)
      if (!entry) {
        entry = resolveCookies(secure, config.cookies)
        cookieCache.set(secure, entry)
      }
      if (entry instanceof AuthError) throw entry
      return entry
    }

    const resolved: ResolvedConfig = Object.freeze({
      basePath,
      secrets: Object.freeze(secrets),
      publicUrl,
      hostPolicy,
      clientAddress,
      generatedSecret: generated,
      trustedOrigins: trusted,
      providers,
      unavailableProviders: unavailable,
      adapter,
      session: Object.freeze(session),
      sessionStrategy,
      sessionRevocation,
      jwt: Object.freeze(jwt),
      callbacks: Object.freeze(callbacks),
      events: Object.freeze({ ...config.events }),
      pages: Object.freeze(pages),
      theme: resolveTheme(config.theme),
      messages: resolveMessages(config.messages, modules.messages),
      logger,
      debug: !!config.debug,
      skipCSRFCheck: config.skipCSRFCheck === skipCSRFCheck,
      useSecureCookies: config.useSecureCookies,
      experimental: Object.freeze(experimental),
      redirectProxyUrl,
      ...settings,
      hooks,
      userFields,
      modules,
      cookies,
    })
    for (const code of warnings) logger.warn(code)
    for (const error of unavailable.values()) logger.errorOnce(error)
    return { ok: true, config: resolved }
  } catch (error) {
    const authError =
      error instanceof ConfigError
        ? error.error
        : error instanceof AuthError
          ? error
          : new InvalidProvider("The configuration could not be read.", { cause: error })
    // Only pages that pass validation may be used to report the error (never an open redirect).
    const usablePages = Object.fromEntries(Object.entries(pages).filter(([, value]) => pageProblem(value) === null))
    const url = envUrl(env)
    const publicOrigin = url && isHttpUrl(url) ? new URL(url).origin : undefined
    return { ok: false, error: authError, basePath, pages: usablePages, logger, publicOrigin }
  }
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string") return false
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

function parsePublicUrl(env: Env): URL | undefined {
  const value = envUrl(env)
  if (!value) return undefined
  if (!isHttpUrl(value)) {
    fail(new InvalidEndpoints(`AUTH_URL (or SESAME_URL) must be the app's public http(s) URL; got "${value}".`))
  }
  return new URL(value)
}

function resolveBasePath(configured: string | undefined, publicUrl: URL | undefined, warnings: WarningCode[]): string {
  const fromUrl = publicUrl && publicUrl.pathname !== "/" ? publicUrl.pathname : undefined
  if (configured !== undefined && fromUrl && normaliseBasePath(fromUrl) !== normaliseBasePath(configured)) {
    warnings.push("env-url-basepath-redundant")
  }
  const value = configured ?? fromUrl ?? defaultBasePath
  if (!isBasePath(value)) {
    fail(new InvalidEndpoints(`\`basePath\` must be a path such as "/auth" (no query, fragment or spaces); got ${JSON.stringify(value)}.`))
  }
  return normaliseBasePath(value)
}

function resolveSecrets(secret: AuthConfig["secret"], env: Env, warnings: WarningCode[]): { secrets: string[]; generated: boolean } {
  let named: NamedSecret[]
  if (secret !== undefined) {
    const list = Array.isArray(secret) ? secret : [secret]
    if (list.length === 0 || list.some((s) => typeof s !== "string" || s.length === 0)) {
      fail(new MissingSecretError("`secret` must be a non-empty string or a non-empty array of non-empty strings."))
    }
    named = list.map((value, i) => ({ source: Array.isArray(secret) ? `\`secret[${i}]\`` : "`secret`", value }))
  } else {
    named = envSecretEntries(env)
  }
  if (named.length === 0) {
    if (isProduction(env)) {
      fail(
        new MissingSecretError(
          "No secret is set. Set AUTH_SECRET (or SESAME_SECRET) in the server's environment to a random string of at least 32 characters, e.g. the output of `npx @sesame/cli secret` or `openssl rand -base64 33`, or pass it as the `secret` option. " +
            "NODE_ENV is production, where Sesame makes no development secret: until the secret is set and the server restarted, nobody can sign in and every request to Sesame's endpoints answers the Configuration error (500).",
        ),
      )
    }
    const development = developmentSecret()
    if (development.kind === "unavailable") {
      fail(
        new MissingSecretError(
          "No secret is set (AUTH_SECRET or SESAME_SECRET), and this runtime (Edge, or another without a file system) cannot share the development secret that Node.js keeps for the app: sessions sealed there could not be read here. Set AUTH_SECRET in this runtime's environment and restart the dev server: `npx @sesame/cli secret --write` puts AUTH_SECRET=… in .env.local, which Next.js loads by itself; elsewhere give it to the runtime's environment as your tool does (or pass it as the `secret` option).",
        ),
      )
    }
    warnings.push(development.kind === "shared" ? "missing-secret-development" : "missing-secret-development-process")
    return { secrets: [development.value], generated: true }
  }
  // Every secret still decrypts (older ones too), so every one must be strong.
  for (const { source, value } of named) {
    const weakness = secretWeakness(value)
    if (!weakness) continue
    if (isProduction(env)) {
      fail(
        new MissingSecretError(
          `The secret in ${source} is too weak: ${weakness}. Replace it with a random one, made with \`npx @sesame/cli secret\` or \`openssl rand -base64 33\`.`,
        ),
      )
    }
    warnings.push("weak-secret")
    break
  }
  return { secrets: named.map((s) => s.value), generated: false }
}

function checkPositive(option: string, value: unknown): void {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    fail(new InvalidProvider(`\`${option}\` must be a positive number of seconds; got ${JSON.stringify(value)}.`))
  }
}

function resolveSession(input: AuthConfig["session"], adapter: Adapter | undefined): SessionOptions {
  const strategy = input?.strategy ?? (adapter ? "database" : "jwt")
  if (strategy !== "jwt" && strategy !== "database") {
    fail(new InvalidProvider(`\`session.strategy\` must be "jwt" or "database"; got ${JSON.stringify(strategy)}.`))
  }
  if (strategy === "database" && !adapter) {
    fail(new MissingAdapter('`session.strategy` is "database", which needs an `adapter` to store sessions.'))
  }
  const session: SessionOptions = {
    strategy,
    maxAge: input?.maxAge ?? defaultMaxAge,
    updateAge: input?.updateAge ?? defaultUpdateAge,
    generateSessionToken: input?.generateSessionToken ?? defaultGenerateSessionToken,
    freshAge: input?.freshAge ?? defaultMaxSignInAge,
    ...(input?.revocation !== undefined ? { revocation: input.revocation } : {}),
  }
  checkPositive("session.freshAge", session.freshAge!)
  const absoluteMaxAge = input?.absoluteMaxAge ?? defaultAbsoluteMaxAge
  if (absoluteMaxAge !== undefined) {
    checkPositive("session.absoluteMaxAge", absoluteMaxAge)
    session.absoluteMaxAge = absoluteMaxAge
  }
  checkPositive("session.maxAge", session.maxAge)
  if (typeof session.updateAge !== "number" || !Number.isFinite(session.updateAge) || session.updateAge < 0) {
    fail(new InvalidProvider(`\`session.updateAge\` must be 0 or a positive number of seconds; got ${JSON.stringify(session.updateAge)}.`))
  }
  if (typeof session.generateSessionToken !== "function") {
    fail(new InvalidProvider("`session.generateSessionToken` must be a function returning a string."))
  }
  return session
}

/** The adapter methods the configured features call. */
export function neededAdapterMethods(session: SessionOptions, providers: readonly Provider[]): Map<AdapterRequirement, string> {
  const needed = new Map<AdapterRequirement, string>()
  const need = (feature: string, ...methods: AdapterRequirement[]) => {
    for (const m of methods) if (!needed.has(m)) needed.set(m, feature)
  }
  if (session.strategy === "database") need("database sessions", "createSession", "getSessionAndUser", "updateSession", "deleteSession")
  if (session.strategy === "database" && session.absoluteMaxAge !== undefined) {
    // The limit counts from the session's `createdAt`, which only adapters with session management store.
    need("`session.absoluteMaxAge` with database sessions, which reads the session's createdAt", "listSessionsByUserId")
  }
  for (const p of providers) {
    switch (p.type) {
      case "oauth":
      case "oidc":
        need(`provider "${p.id}"`, "getUserByAccount", "getUserByEmail", "createUser", "linkAccount", "getUser")
        // Linking by address verifies an unverified owner's address (account/decide.ts).
        if (p.allowDangerousEmailAccountLinking) need(`provider "${p.id}" with allowDangerousEmailAccountLinking`, "updateUser")
        break
      case "credentials":
        if (session.strategy === "database") {
          need(`provider "${p.id}" with database sessions`, "getUser", "getUserByEmail")
          if (p.createUser) need(`provider "${p.id}" with createUser`, "createUser")
        }
        break
      default:
        // A kind a capability brings says what it calls.
        for (const [feature, methods] of providerKinds().get(p.type)?.needs(p as never, session) ?? []) need(feature, ...methods)
    }
  }
  return needed
}

/**
 * The adapter that stores the user fields: its own `withUserFields`, or, without one (an Auth.js
 * adapter), the adapter as it is, which receives them in `createUser` as Auth.js passes a profile's
 * fields, and stores them if its schema has them (Prisma's does; the warning says to check).
 */
function withUserFields(adapter: Adapter, fields: ResolvedUserFields, warnings: WarningCode[]): Adapter {
  if (!fields.model) return adapter
  if (typeof adapter.withUserFields === "function") return adapter.withUserFields(fields.model)
  warnings.push("user-fields-adapter-unaware")
  return adapter
}

/** Runs `fn`, a feature's or the plugins' resolution or check: a `TypeError` naming an option becomes the `Configuration` error. */
function asConfigError<T>(fn: () => T): T {
  try {
    return fn()
  } catch (error) {
    if (error instanceof AuthError) fail(error)
    fail(new InvalidProvider(error instanceof Error ? error.message : String(error)))
  }
}

/** The built-in capabilities' checks, and their settings by key, in the registration list's order. */
function resolveFeatures(input: FeatureInput): FeatureSettings {
  const settings: Record<string, unknown> = {}
  for (const feature of builtInFeatures()) {
    if (feature.check) asConfigError(() => feature.check!(input))
    const declared = feature.settings
    if (declared) settings[declared.key] = asConfigError(() => declared.resolve(input))
  }
  return settings as FeatureSettings
}

/**
 * The adapter's users as modules read them (`ModuleUsers`), their sessions ended as "sign out
 * everywhere" ends them, new ones created as a sign-in creates them. `config`: the configuration
 * being resolved, for the `createUser` event (asked only once a request runs).
 */
function moduleUsers(adapter: CheckedAdapter, userFields: ResolvedUserFields, config: () => ResolvedConfig): ModuleUsers {
  return {
    get: (id) => adapter.getUser(id),
    getByEmail: (email) => adapter.getUserByEmail(email),
    async create({ email, name, emailVerified }) {
      const user = await adapter.createUser({ ...newUserFields(userFields, {}), id: crypto.randomUUID(), email: providerEmail(email) ?? email, name, image: null, emailVerified })
      await emit(config(), "createUser", { user })
      // A module's provisioning, outside the person's request: nobody signed in made them.
      await emitSecurity(config(), undefined, { type: "user.created", userId: user.id, actorId: null })
      return user
    },
    async endSessions(id) {
      const ended = await endUserSessions(config(), adapter, id)
      await emitSecurity(config(), undefined, { type: "sessions.revoked", userId: id, actorId: null, details: { count: ended } })
      return ended
    },
    async accounts(id) {
      return (await adapter.listAccountsByUserId(id)).map(({ provider, type, providerAccountId }) => ({ provider, type, providerAccountId }))
    },
    async sessions(id) {
      const resolved = config()
      if (resolved.session.strategy !== "database") return []
      const now = Date.now()
      return (await adapter.listSessionsByUserId(id))
        .filter((s) => storedSessionLive(resolved.session, s, now))
        .map((s) => ({ createdAt: s.createdAt ? new Date(s.createdAt) : null, lastUsedAt: s.lastUsedAt ? new Date(s.lastUsedAt) : null, expires: new Date(s.expires), userAgent: s.userAgent ?? null }))
        .sort((a, b) => (b.createdAt?.getTime() ?? 0) - (a.createdAt?.getTime() ?? 0))
    },
    async delete(id) {
      const user = await adapter.getUser(id)
      if (!user) return false
      await deleteStoredUser(config(), adapter, user)
      return true
    },
    list: (query) => adapter.listUsers(query),
    inGoodStanding: (id) => userInGoodStanding(config(), adapter, id),
  }
}

/**
 * The features' hooks. The sign-in gate and `beforeRequest` are a feature's only while its settings are on;
 * `sessionsEnded` runs for every feature, on or off: what it forgets must not come back when the
 * app turns the feature on again (a device remembered before a password reset).
 */
function featureHooks(settings: FeatureSettings): FeatureHooks {
  const on = builtInFeatures().filter((feature) => !feature.settings || (settings as Record<string, unknown>)[feature.settings.key] !== undefined)
  return Object.freeze({
    signInGate: on.find((feature) => feature.signInGate)?.signInGate,
    beforeRequest: Object.freeze(on.flatMap((feature) => (feature.beforeRequest ? [feature.beforeRequest] : []))),
    sessionsEnded: Object.freeze(builtInFeatures().flatMap((feature) => (feature.sessionsEnded ? [feature.sessionsEnded] : []))),
    sendPasswordReset: on.find((feature) => feature.sendPasswordReset)?.sendPasswordReset,
    aboutUser: Object.freeze(on.flatMap(({ id, aboutUser }) => (aboutUser ? [{ id, aboutUser }] : []))),
    formGuard: on.find((feature) => feature.formGuard)?.formGuard,
    limiter: on.find((feature) => feature.limiter)?.limiter,
  })
}

/**
 * What an adapter with fewer methods than Sesame's own leaves off, for the start-up log: each
 * feature the configuration could use, with the methods it lacks. These features fail alone, when
 * used, with `MissingAdapterMethods` naming the method (or are off, like two-factor sign-in); every
 * sign-in and session the spec's contract describes works without them.
 */
export function degradedFeatures(adapter: Adapter, input: FeatureInput): string[] {
  const { session, providers } = input
  const features: FeatureNeed[] = [["account management (listAccounts, unlinkAccount)", ["listAccountsByUserId", "unlinkAccount"]]]
  if (session.strategy === "database") {
    features.push(["session management (listSessions, revokeSession, revokeOtherSessions)", ["listSessionsByUserId", "deleteSessionsByUserId"]])
  }
  if (providers.some((p) => p.type === "oauth" || p.type === "oidc")) features.push(["keeping refreshed provider tokens", ["updateAccount"]])
  for (const feature of builtInFeatures()) features.push(...(feature.optional?.(input) ?? []))
  return features.flatMap(([feature, methods]) => {
    const missing = missingMethods(adapter, methods)
    return missing.length > 0 ? [`${feature}: ${missing.join(", ")}`] : []
  })
}

function checkAdapterCoverage(adapter: Adapter | undefined, session: SessionOptions, providers: readonly Provider[]): void {
  const needsAdapter = providers.find((p) => providerKinds().has(p.type))
  if (needsAdapter && !adapter) {
    fail(new MissingAdapter(`Provider "${needsAdapter.id}" (${needsAdapter.type}) stores tokens, so it needs an \`adapter\`.`))
  }
  if (!adapter) return
  const needed = neededAdapterMethods(session, providers)
  const missing = missingMethods(adapter, needed.keys())
  if (missing.length > 0) {
    const detail = missing.map((m) => `${m} (for ${needed.get(m)})`).join(", ")
    fail(new MissingAdapterMethods(`The adapter is missing methods that the configuration needs: ${detail}.`))
  }
}

function resolveCallbacks(input: AuthConfig["callbacks"]): CallbacksOptions {
  const callbacks = { ...defaultCallbacks }
  for (const [name, fn] of Object.entries(input ?? {})) {
    if (fn === undefined) continue
    if (!(name in defaultCallbacks)) continue
    if (typeof fn !== "function") fail(new InvalidProvider(`\`callbacks.${name}\` must be a function.`))
    ;(callbacks as Record<string, unknown>)[name] = fn
  }
  return callbacks
}

function pageProblem(value: unknown): string | null {
  if (typeof value !== "string") return "must be a string"
  if (value.startsWith("//") || value.startsWith("/\\") || !(value.startsWith("/") || isHttpUrl(value))) {
    return 'must be a path starting with "/" or an http(s) URL'
  }
  return null
}

function checkPages(pages: Partial<PagesOptions>): void {
  for (const [name, value] of Object.entries(pages)) {
    if (value === undefined) continue
    const problem = pageProblem(value)
    if (problem) fail(new InvalidEndpoints(`\`pages.${name}\` ${problem}; got ${JSON.stringify(value)}.`))
  }
}

function resolveCookies(secure: boolean, overrides: PartialCookiesOptions | undefined): CookiesOptions | AuthError {
  const declared = builtInFeatures().flatMap((feature) => Object.entries(feature.cookies ?? {}))
  const cookies = mergeCookies(defaultCookies(secure, declared), overrides)
  for (const [role, { name, options }] of Object.entries(cookies)) {
    const problem = cookieProblem(name, options)
    if (problem) return new InvalidProvider(`\`cookies.${role}\`: ${problem}.`)
  }
  return cookies
}
