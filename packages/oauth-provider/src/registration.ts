/**
 * The app's say on dynamic client registration (`dynamicRegistration.allow`): asked with the
 * metadata a client sends to `POST <issuer>/reg` before oidc-provider sees it. A refusal is the
 * registration error RFC 7591 defines; nothing is stored.
 *
 * @module
 */
import { isHttpsOrLoopback } from "./uris.js"
import type { ResolvedOptions } from "./options.js"

/** URLs in client metadata that the server would fetch itself: a registrant would choose where. */
const fetchedUrls = ["jwks_uri", "sector_identifier_uri", "request_uris", "backchannel_client_notification_endpoint", "initiate_login_uri"]

/**
 * What no registration may claim, whatever the app's `allow` says: the client credentials grant
 * (tokens for the app's APIs in no user's name, with no consent: the configuration's clients'
 * alone), URLs the server would fetch, and a post-logout URI other than https or loopback http.
 */
function refusedOutright(metadata: Record<string, unknown>): string | null {
  if (Array.isArray(metadata.grant_types) && metadata.grant_types.includes("client_credentials")) return "A registered client may not use the client credentials grant."
  for (const field of fetchedUrls) if (metadata[field] !== undefined) return `A registered client may not give \`${field}\`: the server fetches no URL a registrant names.`
  const logout = metadata.post_logout_redirect_uris
  if (logout !== undefined && !(Array.isArray(logout) && logout.every(isHttpsOrLoopback))) return "Post-logout redirect URIs must be https, or http on a loopback host."
  return null
}

/** `request` as it came when the app allows it (its body read once, so made again), else the refusal. */
export async function admitRegistration(options: ResolvedOptions, request: Request): Promise<Request | Response> {
  if (options.dynamicRegistration === false) return request
  const text = await request.text()
  let metadata: unknown
  try {
    metadata = JSON.parse(text)
  } catch {
    metadata = undefined
  }
  const fields = typeof metadata === "object" && metadata !== null && !Array.isArray(metadata) ? (metadata as Record<string, unknown>) : undefined
  const allowed = fields !== undefined && refusedOutright(fields) === null && (await options.dynamicRegistration.allow(fields)) === true
  if (!allowed) {
    const reason = (fields && refusedOutright(fields)) ?? "The registration was refused."
    return Response.json({ error: "invalid_client_metadata", error_description: reason }, { status: 400, headers: { "cache-control": "no-store" } })
  }
  return new Request(request.url, { method: request.method, headers: request.headers, body: text })
}
