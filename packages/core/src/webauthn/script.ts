/**
 * `GET {basePath}/webauthn-script`: the passkey script of the sign-in page (`page-script.ts` with
 * `@simplewebauthn/browser`, bundled at build time), served by the app itself so that no page
 * loads code from a third-party host.
 *
 * Pages link it with its version in the query (`?v=`); a request for the current version may be
 * cached for a year, any other answers with `no-cache` and an ETag, so an upgrade is picked up
 * at once.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import { BadRequest } from "../errors.js"
import type { InternalResponse } from "../http/response.js"
import { passkeyScript, passkeyScriptVersion } from "./script.generated.js"

/** The script's URL under `basePath` (a path, so that it is always fetched from the page's origin). */
export function passkeyScriptUrl(basePath: string): string {
  return `${basePath}/webauthn-script?v=${passkeyScriptVersion}`
}

export function servePasskeyScript(ctx: RequestContext): InternalResponse {
  if (![...ctx.config.providers.values()].some((p) => p.type === "webauthn")) throw new BadRequest("No WebAuthn provider is configured.", 404)
  const etag = `"${passkeyScriptVersion}"`
  const headers: Record<string, string> = {
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": ctx.query.v === passkeyScriptVersion ? "public, max-age=31536000, immutable" : "no-cache",
    ETag: etag,
  }
  if (ctx.headers.get("if-none-match") === etag) return { status: 304, headers }
  return { status: 200, headers, body: passkeyScript }
}
