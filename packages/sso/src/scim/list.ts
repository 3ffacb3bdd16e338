/**
 * Listing a resource type (RFC 7644 §3.4.2): the filter, then pages by `startIndex` (1-based; less
 * than 1 counts as 1) and `count` (negative counts as 0; at most {@link maxResults}), in the order
 * the resources were made, as a ListResponse.
 *
 * @module
 */
import type { ModelDeclaration, StoredRow, Where } from "@sesame/core"
import type { Scope } from "./auth.js"
import { invalidValue } from "./errors.js"
import type { Selection } from "./filter.js"
import { queryParam, schemas, scimResponse } from "./http.js"

/** The most resources one page holds (what ServiceProviderConfig says as `filter.maxResults`). */
export const maxResults = 200

function integerOf(url: URL, name: string): number | undefined {
  const raw = queryParam(url, name)
  if (raw === undefined) return undefined
  if (!/^-?\d{1,9}$/.test(raw.trim())) throw invalidValue(`\`${name}\` must be an integer.`)
  return Number(raw.trim())
}

/** One page of `model`'s rows of this connection that `selection` selects, each shown with `show`. */
export async function listResponse(scope: Scope, url: URL, model: ModelDeclaration, selection: Selection, show: (row: StoredRow) => unknown): Promise<Response> {
  const startIndex = Math.max(1, integerOf(url, "startIndex") ?? 1)
  const count = Math.min(maxResults, Math.max(0, integerOf(url, "count") ?? maxResults))
  let total = 0
  let rows: StoredRow[] = []
  if (!("none" in selection)) {
    const where: Where = { ...selection.where, connectionId: scope.connectionId, organizationId: scope.organizationId }
    total = await scope.store.count(model, where)
    rows = count === 0 ? [] : await scope.store.findMany(model, { where, orderBy: [{ field: "createdAt" }, { field: "id" }], offset: startIndex - 1, limit: count })
  }
  return scimResponse(200, { schemas: [schemas.listResponse], totalResults: total, startIndex, itemsPerPage: rows.length, Resources: rows.map(show) })
}
