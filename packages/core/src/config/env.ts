/**
 * What Sesame reads from the environment. `SESAME_*` names win over their `AUTH_*` aliases.
 *
 * | variable | meaning |
 * |---|---|
 * | `SESAME_SECRET` / `AUTH_SECRET` | the secret; `AUTH_SECRET_1`…`_3` are older secrets still accepted |
 * | `SESAME_URL` / `AUTH_URL` | the public URL of the app (origin, and base path when it has one) |
 * | `AUTH_TRUST_HOST` | trust the Host / X-Forwarded-* headers |
 * | `AUTH_REDIRECT_PROXY_URL` | default `redirectProxyUrl` |
 * | `AUTH_<ID>_ID`, `_SECRET`, `_ISSUER`, `_KEY` | provider credentials, ID in upper snake case |
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
 * Whether to trust the request's host when the configuration does not say: yes when the public URL
 * is configured, when `AUTH_TRUST_HOST` says so, on platforms that set the Host header themselves
 * (Vercel, Cloudflare Pages), and outside production.
 */
export function envTrustHost(env: Env): boolean {
  const explicit = envFlag(env.SESAME_TRUST_HOST ?? env.AUTH_TRUST_HOST)
  if (explicit !== undefined) return explicit
  return !!envUrl(env) || !!env.VERCEL || !!env.CF_PAGES || !isProduction(env)
}
