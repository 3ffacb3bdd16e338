/**
 * Which organization an address belongs to: the organization that proved its domain (the
 * organizations module's verified domains). The domain is exactly the part after the last `@`:
 * `ada@sub.acme.com` is not at `acme.com`, as for the organizations module's auto-join.
 *
 * @module
 */
import { domainToASCII } from "node:url"
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

/**
 * Whether an organization other than `organizationId` has proven the domain of `email` since: the
 * domain changed hands, and `organizationId`'s identity provider no longer speaks for its people.
 * A domain in Unicode form is looked for as proven ones are stored, in punycode; an address whose
 * domain cannot be read counts as held elsewhere (refused rather than let through unchecked). No
 * address: nothing to check.
 */
export async function heldElsewhere(store: Store, email: unknown, organizationId: string): Promise<boolean> {
  if (typeof email !== "string" || !email.includes("@")) return false
  const domain = emailDomain(email) ?? emailDomain(`x@${domainToASCII(email.slice(email.lastIndexOf("@") + 1).trim().toLowerCase())}`)
  if (!domain) return true
  const owner = await organizationOfDomain(store, domain)
  return owner !== null && owner !== organizationId
}
