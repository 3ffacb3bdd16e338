/**
 * The demo's notes API, for scripts with an API key (`Authorization: Bearer sesame_…`, made on the
 * account page or an organization's page): who the key is for and what it may do. The key is
 * checked with the API keys plugin's `verifyApiKey`, which reads this request's headers: a key
 * that is unknown, expired, revoked or whose user is suspended answers 401; one over its rate limit
 * (5 a minute in the demo) 429 with `Retry-After`; one without `notes:read` 403.
 *
 * It reads no cookie: a browser's session is no credential here, so a page on another site cannot
 * make a signed-in visitor's browser call it.
 */
import { hasScopes } from "@sesame/api-keys"
import { apiKeysApi } from "../../../auth"

const noStore = { "cache-control": "no-store" }

export async function GET(): Promise<Response> {
  const key = await apiKeysApi.verifyApiKey()
  if (!key) return Response.json({ error: "invalid-key" }, { status: 401, headers: { ...noStore, "www-authenticate": 'Bearer realm="sesame-demo-notes"' } })
  if (key.rateLimited) return Response.json({ error: "rate-limited" }, { status: 429, headers: { ...noStore, "retry-after": String(key.retryAfter) } })
  if (!hasScopes(key, ["notes:read"])) return Response.json({ error: "insufficient-scope" }, { status: 403, headers: noStore })
  const owner = key.userId ? { user: key.userId } : { organization: key.organizationId }
  return Response.json({ ...owner, key: key.name, scopes: key.scopes, notes: [] }, { headers: noStore })
}
