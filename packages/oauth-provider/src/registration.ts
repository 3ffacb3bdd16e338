/**
 * The app's say on dynamic client registration (`dynamicRegistration.allow`): asked with the
 * metadata a client sends to `POST <issuer>/reg` before oidc-provider sees it. A refusal is the
 * registration error RFC 7591 defines; nothing is stored.
 *
 * @module
 */
import type { ResolvedOptions } from "./options.js"

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
  const allowed = typeof metadata === "object" && metadata !== null && !Array.isArray(metadata) && (await options.dynamicRegistration.allow(metadata as Record<string, unknown>)) === true
  if (!allowed) return Response.json({ error: "invalid_client_metadata", error_description: "The registration was refused." }, { status: 400, headers: { "cache-control": "no-store" } })
  return new Request(request.url, { method: request.method, headers: request.headers, body: text })
}
