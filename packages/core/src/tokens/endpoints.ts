/**
 * `GET token`: an API token for the signed-in user (`401` without one); `GET jwks`: the public
 * keys that verify them. Both are `404` unless `apiTokens` is configured.
 *
 * The token is only ever read by the app's own pages or server: it is a GET with no side effect
 * but the session read's, and no `Access-Control-Allow-Origin` is sent, so another site's page
 * cannot read it. Still, a request the browser says comes from another site (`Sec-Fetch-Site:
 * cross-site` or `same-site`) is refused, so that no cross-site read (a misconfigured CORS layer in
 * front of the app, a `<script>` inclusion) ever gets a token.
 *
 * The key set is public and cacheable: `Cache-Control: public, max-age=300`, the lead a new key is
 * published before it signs (`tokens/key-ring.ts`).
 *
 * @module
 */
import { defaultJwksMaxAge } from "../config/defaults.js"
import { BadRequest } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { CrossSiteRequest } from "../http/origin-check.js"
import { jsonText, noStore, unauthorizedBody, type InternalResponse } from "../http/response.js"
import { issueApiToken, publishedKeys } from "./issue.js"
import type { ResolvedApiTokens } from "./settings.js"

function settingsOf(ctx: RequestContext): ResolvedApiTokens {
  const settings = ctx.config.apiTokens
  if (!settings) throw new BadRequest("API tokens are not enabled (`apiTokens`).", 404)
  return settings
}

export async function apiToken(ctx: RequestContext): Promise<InternalResponse> {
  const settings = settingsOf(ctx)
  const site = ctx.headers.get("sec-fetch-site")
  if (site !== null && site !== "same-origin" && site !== "none") throw new CrossSiteRequest("API tokens are given to the app's own pages only.")
  const issued = await issueApiToken(ctx, settings)
  if (!issued) return { status: 401, body: { ...unauthorizedBody }, headers: { ...noStore }, cookies: ctx.setCookies }
  return { status: 200, body: issued, headers: { ...noStore }, cookies: ctx.setCookies }
}

export async function jwks(ctx: RequestContext): Promise<InternalResponse> {
  const body = jsonText(await publishedKeys(settingsOf(ctx)))
  return { status: 200, body, headers: { "Cache-Control": `public, max-age=${defaultJwksMaxAge}`, "Content-Type": "application/jwk-set+json" } }
}
