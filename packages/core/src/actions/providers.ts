/**
 * `GET providers`: the configured providers and their URLs.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import { json, type InternalResponse } from "../http/response.js"
import type { AppProvider } from "../types.js"

export function providers(ctx: RequestContext): InternalResponse {
  const list: Record<string, AppProvider> = {}
  for (const p of ctx.config.providers.values()) {
    const id = encodeURIComponent(p.id)
    list[p.id] = {
      id: p.id,
      name: p.name,
      type: p.type,
      signinUrl: `${ctx.authUrl}/signin/${id}`,
      callbackUrl: `${ctx.authUrl}/callback/${id}`,
    }
  }
  return json(list)
}
