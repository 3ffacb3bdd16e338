/**
 * Which organization an address belongs to: the organization that proved its domain (the
 * organizations module's verified domains). The domain is exactly the part after the last `@`:
 * `ada@sub.acme.com` is not at `acme.com`, as for the organizations module's auto-join.
 *
 * @module
 */
import { op, type Store } from "@sesame/core"
import { domainModel } from "@sesame/organizations"

/** The domain of an address, lower-cased; null when it has none. */
export function emailDomain(email: unknown): string | null {
  if (typeof email !== "string") return null
  const at = email.lastIndexOf("@")
  const domain = at > 0 ? email.slice(at + 1).trim().toLowerCase() : ""
  return domain && /^[a-z0-9.-]+$/.test(domain) && !domain.startsWith(".") && !domain.endsWith(".") ? domain : null
}

/** The domains `organizationId` proved, sorted. */
export async function verifiedDomains(store: Store, organizationId: string): Promise<string[]> {
  const rows = await store.findMany(domainModel, { where: { organizationId, verifiedDomain: op.ne(null) } })
  return rows.filter((row) => row.verifiedAt instanceof Date).map((row) => String(row.verifiedDomain)).sort()
}

/** The organization that proved `domain`, or null. */
export async function organizationOfDomain(store: Store, domain: string): Promise<string | null> {
  const row = await store.findOne(domainModel, { verifiedDomain: domain })
  return row && row.verifiedAt instanceof Date && row.domain === domain ? String(row.organizationId) : null
}
