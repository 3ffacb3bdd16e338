/**
 * The demo's API and the app's side of calling it. The API (app/api/me/route.ts) stands in for a
 * separate service, as examples/resource-server is one: it knows the app's public URL and the
 * audience its tokens name, never the app's secret. The app gets an API token for the signed-in
 * user (`getApiToken()` in auth.ts) and calls the API with it from the server (`callApi`).
 *
 * Both sides take the app's origin from the URL the launcher gives the app (`AUTH_URL`), never
 * from a request: a forged `Host` header must not choose whose keys the API trusts, nor where the
 * app sends its users' tokens.
 */

/** The `aud` of the app's API tokens, which the API checks: tokens made for another service are refused. */
export const apiAudience = "sesame-demo-api"

/** The API's path on the app's origin. */
export const apiPath = "/api/me"

/**
 * The app's public origin (`http://localhost:3000`): `SESAME_URL` or `AUTH_URL`, which the core
 * prefers in that order; null when neither is a URL (the app then cannot serve requests in
 * production anyway).
 */
export function publicOrigin(): string | null {
  const url = process.env.SESAME_URL || process.env.AUTH_URL
  if (!url || !URL.canParse(url)) return null
  return new URL(url).origin
}

/** What the API answers: who is calling and until when the token holds, or why it refused. */
export type ApiAnswer = { user: string; expiresAt: string } | { error: string }

/** One claim of the token, ready to show. */
export interface ShownClaim {
  name: string
  value: string
}

/** What the home page shows after calling the API: the API's answer and the token's claims. */
export type ApiCall =
  | { outcome: "answered"; user: string; expiresAt: string; signedWith: string; claims: ShownClaim[] }
  | { outcome: "refused"; status: number; error: string; signedWith: string; claims: ShownClaim[] }
  | { outcome: "signed-out" | "not-configured" | "unreachable" }

/** Claims that are times (seconds since 1970): shown with their date too. */
const timeClaims = new Set(["iat", "nbf", "exp"])

function shown(name: string, value: unknown): ShownClaim {
  if (timeClaims.has(name) && typeof value === "number") {
    return { name, value: `${value} (${new Date(value * 1000).toISOString().replace("T", " ").slice(0, 19)} UTC)` }
  }
  return { name, value: typeof value === "string" ? value : JSON.stringify(value) }
}

/**
 * The header's algorithm and key, and the claims, of a token the app just got from Sesame. Read
 * without checking the signature: the API does that. The claims are not secret (anyone holding the
 * token can read them), the token is: the page never shows it.
 */
function decodeToken(token: string): { signedWith: string; claims: ShownClaim[] } {
  const [header, payload] = token
    .split(".")
    .slice(0, 2)
    .map((part) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>)
  return {
    signedWith: `${String(header?.alg)}, key ${String(header?.kid)}`,
    claims: Object.entries(payload ?? {}).map(([name, value]) => shown(name, value)),
  }
}

/** `body[name]` when `body` is an object and that field a string. */
function stringField(body: unknown, name: string): string | undefined {
  const value = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined
  return typeof value === "string" ? value : undefined
}

/** Calls the API with `token` as the bearer, and says what it answered. */
export async function callApi(token: string): Promise<ApiCall> {
  const origin = publicOrigin()
  if (!origin) return { outcome: "not-configured" }
  const decoded = decodeToken(token)
  let response: Response
  try {
    // No redirects: the token goes to the API and nowhere else.
    response = await fetch(`${origin}${apiPath}`, { headers: { authorization: `Bearer ${token}` }, cache: "no-store", redirect: "error" })
  } catch {
    return { outcome: "unreachable" }
  }
  const body: unknown = await response.json().catch(() => null)
  const user = stringField(body, "user")
  const expiresAt = stringField(body, "expiresAt")
  if (response.ok && user && expiresAt) return { outcome: "answered", user, expiresAt, ...decoded }
  return { outcome: "refused", status: response.status, error: stringField(body, "error") ?? "no-answer", ...decoded }
}
