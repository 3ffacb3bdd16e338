"use server"
/**
 * Server actions of the domains and single sign-on page: add a domain, verify it (Sesame looks its
 * TXT record up in DNS). Each ends in a redirect with a `notice`: what was done, or why Sesame
 * refused (`OrganizationError.code`), which the page says in words.
 */
import { redirect } from "next/navigation"
import { OrganizationError } from "@sesame/organizations"
import { organizationsApi } from "../../../auth"

const field = (form: FormData, name: string) => {
  const value = form.get(name)
  return typeof value === "string" ? value.trim() : ""
}

async function back(done: string, change: () => Promise<unknown>): Promise<never> {
  let query: Record<string, string>
  try {
    await change()
    query = { notice: done }
  } catch (error) {
    if (!(error instanceof OrganizationError)) throw error
    query = { notice: error.code }
  }
  redirect(`/organizations/sso?${new URLSearchParams(query)}`)
}

export async function addDomainAction(form: FormData): Promise<void> {
  await back("DomainAdded", () => organizationsApi.addDomain(field(form, "organizationId"), field(form, "domain")))
}

export async function verifyDomainAction(form: FormData): Promise<void> {
  await back("DomainVerified", () => organizationsApi.verifyDomain(field(form, "organizationId"), field(form, "domainId")))
}
