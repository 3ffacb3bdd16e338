/**
 * `token.conform` for services whose token response is almost standard: the JSON body is
 * rewritten, and a response that is not a successful JSON object is left for oauth4webapi to
 * report.
 *
 * @module
 */

/** A `token.conform` that rewrites the body with `fix` (which returns undefined to keep it). */
export function rewriteTokenBody(fix: (body: Record<string, unknown>) => Record<string, unknown> | undefined) {
  return async (response: Response): Promise<Response | undefined> => {
    if (!response.ok) return undefined
    const body: unknown = await response.json().catch(() => undefined)
    if (!body || typeof body !== "object" || Array.isArray(body)) return undefined
    const fixed = fix(body as Record<string, unknown>)
    return fixed && Response.json(fixed, { status: response.status })
  }
}
