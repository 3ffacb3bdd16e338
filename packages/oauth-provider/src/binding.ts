/**
 * Whether an interaction belongs to this browser: the browser that began it holds oidc-provider's
 * interaction cookie, whose value is the interaction's id, signed with the server's cookie keys.
 * Without this check, anyone could start an authorization, send a signed-in victim to its consent
 * page, and collect a code for the victim's account at the end of their own flow.
 *
 * @module
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import type { ModuleRequest } from "@sesame/core"
import type { Server } from "./server.js"

/** The values of cookie `name` in the request's `Cookie` header (all of them: one sent twice is refused). */
function cookieValues(header: string | null, name: string): string[] {
  const values: string[] = []
  for (const pair of (header ?? "").split(";")) {
    const eq = pair.indexOf("=")
    if (eq > 0 && pair.slice(0, eq).trim() === name) values.push(pair.slice(eq + 1).trim())
  }
  return values
}

/** The signature koa's cookies (Keygrip) give `name=value` under `key`. */
function signature(key: string, data: string): string {
  return createHmac("sha1", key).update(data).digest("base64").replace(/[/+=]/g, (c) => (c === "/" ? "_" : c === "+" ? "-" : ""))
}

export function holdsInteraction(request: ModuleRequest, server: Server, uid: string): boolean {
  const name = server.cookieName("interaction")
  const header = request.headers.get("cookie")
  const values = cookieValues(header, name)
  const signatures = cookieValues(header, `${name}.sig`)
  if (values.length !== 1 || signatures.length !== 1 || values[0] !== uid) return false
  const given = Buffer.from(signatures[0]!)
  return server.cookieKeys.some((key) => {
    const expected = Buffer.from(signature(key, `${name}=${uid}`))
    return expected.length === given.length && timingSafeEqual(expected, given)
  })
}
