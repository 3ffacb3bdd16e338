/**
 * What Sesame reads from the environment. `SESAME_*` names win over their `AUTH_*` aliases.
 *
 * | variable | meaning |
 * |---|---|
 * | `SESAME_SECRET` / `AUTH_SECRET` | the secret; `AUTH_SECRET_1`…`_3` are older secrets still accepted |
 * | `SESAME_URL` / `AUTH_URL` | the public URL of the app (origin, and base path when it has one) |
 * | `AUTH_TRUST_HOST` | trust the Host / X-Forwarded-* headers |
 * | `AUTH_TRUSTED_ORIGINS` | other origins the app trusts (comma-separated; see `trustedOrigins`) |
 * | `AUTH_REDIRECT_PROXY_URL` | default `redirectProxyUrl` |
 * | `AUTH_<ID>_ID`, `_SECRET`, `_ISSUER`, `_KEY` | provider credentials, ID in upper snake case |
 * | `SESAME_CAPTCHA_SITE_KEY` / `AUTH_CAPTCHA_SITE_KEY`, `SESAME_CAPTCHA_SECRET_KEY` / `AUTH_CAPTCHA_SECRET_KEY` | the captcha's keys, where the `captcha` option leaves them out |
 *
 * @module
 */

export type Env = Readonly<Record<string, string | undefined>>

/** The process environment where there is one (Node, edge runtimes that emulate it), else empty. */
export function readEnv(): Env {
  return (globalThis as { process?: { env?: Env } }).process?.env ?? {}
}

/** `true`/`1`/`yes` → true, `false`/`0`/`no`/empty → false, unset → undefined. */
export function envFlag(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined
  const v = value.trim().toLowerCase()
  if (v === "" || v === "false" || v === "0" || v === "no" || v === "off") return false
  return true
}

/** The upper snake case of a provider id: `microsoft-entra-id` → `MICROSOFT_ENTRA_ID`, `myIdp` → `MY_IDP`. */
export function providerEnvName(id: string): string {
  return id
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase()
}

/** A secret and where it was configured (an option or a variable name), for messages that must not quote it. */
export interface NamedSecret {
  source: string
  value: string
}

/** Secrets from the environment, newest first, each with the name of the variable it came from. */
export function envSecretEntries(env: Env): NamedSecret[] {
  const pick = (sesame: string, auth: string): NamedSecret | undefined => {
    if (env[sesame]) return { source: sesame, value: env[sesame] }
    if (env[auth]) return { source: auth, value: env[auth] }
    return undefined
  }
  const current = pick("SESAME_SECRET", "AUTH_SECRET")
  const older = [1, 2, 3].map((n) => pick(`SESAME_SECRET_${n}`, `AUTH_SECRET_${n}`))
  return [current, ...older].filter((s): s is NamedSecret => s !== undefined)
}


export function envUrl(env: Env): string | undefined {
  return env.SESAME_URL || env.AUTH_URL || undefined
}

export function isProduction(env: Env): boolean {
  return env.NODE_ENV === "production"
}

/**
 * Whether the environment says to trust the `Host` / `X-Forwarded-*` headers: `AUTH_TRUST_HOST`
 * (or `SESAME_TRUST_HOST`) when set, else true on platforms whose proxy overwrites those headers
 * itself (Vercel, Cloudflare Pages), else undefined: nothing said, and nothing is inferred from
 * `NODE_ENV` (a server started without it is not thereby a developer's machine).
 */
export function envTrustHost(env: Env): boolean | undefined {
  const explicit = envFlag(env.SESAME_TRUST_HOST ?? env.AUTH_TRUST_HOST)
  if (explicit !== undefined) return explicit
  return env.VERCEL || env.CF_PAGES ? true : undefined
}

/** `AUTH_TRUSTED_ORIGINS` (or `SESAME_TRUSTED_ORIGINS`): comma-separated origin patterns. */
export function envTrustedOrigins(env: Env): string[] | undefined {
  const value = env.SESAME_TRUSTED_ORIGINS ?? env.AUTH_TRUSTED_ORIGINS
  if (value === undefined) return undefined
  return value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
}

/** The captcha's keys from the environment (`captcha.siteKey` and `captcha.secretKey` win over them). */
export function envCaptchaKeys(env: Env): { siteKey: string | undefined; secretKey: string | undefined } {
  return {
    siteKey: env.SESAME_CAPTCHA_SITE_KEY || env.AUTH_CAPTCHA_SITE_KEY || undefined,
    secretKey: env.SESAME_CAPTCHA_SECRET_KEY || env.AUTH_CAPTCHA_SECRET_KEY || undefined,
  }
}
