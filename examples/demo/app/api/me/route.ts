/**
 * The demo's API: who is calling, for a request with `Authorization: Bearer <API token>`. It checks
 * the token as a separate service would (examples/resource-server is one, in its own process):
 * with `verifyApiToken` against the keys the app publishes at `<origin>/api/auth/jwks`, for the
 * issuer `<origin>/api/auth` and the audience `sesame-demo-api`, the origin being the app's
 * configured URL (lib/api.ts), whatever the request's `Host` says.
 *
 * It reads no cookie: a browser's session is no credential here, so a page on another site cannot
 * make a signed-in visitor's browser call it.
 */
import { ApiTokenError, verifyApiToken } from "@sesame/core/verify"
import { basePath } from "../../../auth"
import { apiAudience, publicOrigin, type ApiAnswer } from "../../../lib/api"

const realm = `Bearer realm="${apiAudience}"`

function answer(body: ApiAnswer, status: number, challenge?: string): Response {
  const headers: Record<string, string> = { "cache-control": "no-store" }
  // RFC 6750: a 401 says which scheme the API takes, and why the token given was refused.
  if (challenge) headers["www-authenticate"] = challenge
  return Response.json(body, { status, headers })
}

export async function GET(request: Request): Promise<Response> {
  const origin = publicOrigin()
  if (!origin) return answer({ error: "not-configured" }, 503)
  // RFC 6750's b64token; the scheme's name is case-insensitive.
  const token = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i.exec(request.headers.get("authorization") ?? "")?.[1]
  if (!token) return answer({ error: "no-token" }, 401, realm)
  const issuer = `${origin}${basePath}`
  try {
    const claims = await verifyApiToken(token, { jwksUrl: `${issuer}/jwks`, issuer, audience: apiAudience })
    return answer({ user: claims.sub, expiresAt: new Date(claims.exp * 1000).toISOString() }, 200)
  } catch (error) {
    if (!(error instanceof ApiTokenError)) throw error
    // The app's keys could not be fetched: the token may be good, so not a 401.
    if (error.code === "keys-unavailable") return answer({ error: error.code }, 503)
    return answer({ error: error.code }, 401, `${realm}, error="invalid_token"`)
  }
}
