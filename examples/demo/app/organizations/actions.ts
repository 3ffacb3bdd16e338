"use server"
/**
 * Server actions of the organizations pages: create an organization, make one active, invite an
 * address, cancel an invitation, accept one. Each ends in a redirect, with a `notice` naming what
 * happened or why Sesame refused (`OrganizationError.code`; the pages say it in words).
 */
import { revalidatePath } from "next/cache"
import { redirect } from "next/navigation"
import { OrganizationError } from "@sesame/organizations"
import { organizationsApi } from "../../auth"

/** A form field as typed, or "". */
const field = (form: FormData, name: string) => {
  const value = form.get(name)
  return typeof value === "string" ? value.trim() : ""
}

/** Runs `change`; its refusal's code, or null when done. Anything else than a refusal is an error. */
async function refusalOf(change: () => Promise<unknown>): Promise<string | null> {
  try {
    await change()
    return null
  } catch (error) {
    if (error instanceof OrganizationError) return error.code
    throw error
  }
}

function back(done: string, refusal: string | null): never {
  redirect(`/organizations?notice=${encodeURIComponent(refusal ?? done)}`)
}

export async function createOrganizationAction(form: FormData): Promise<void> {
  const name = field(form, "name")
  back("Created", await refusalOf(() => organizationsApi.createOrganization({ name })))
}

export async function setActiveOrganizationAction(form: FormData): Promise<void> {
  const organizationId = field(form, "organizationId")
  const refusal = await refusalOf(() => organizationsApi.setActiveOrganization(organizationId))
  // The layout's header names the active organization: render it again too.
  revalidatePath("/", "layout")
  back("Activated", refusal)
}

/** Invites an address with one of the roles the form offers (Sesame checks the inviter may give it). */
export async function inviteMemberAction(form: FormData): Promise<void> {
  const role = field(form, "role")
  if (role !== "admin" && role !== "member") back("", "InvalidInput")
  back("Invited", await refusalOf(() => organizationsApi.inviteMember(field(form, "organizationId"), field(form, "email"), [role])))
}

export async function cancelInvitationAction(form: FormData): Promise<void> {
  back("Cancelled", await refusalOf(() => organizationsApi.cancelInvitation(field(form, "organizationId"), field(form, "invitationId"))))
}

/** Accepts the invitation of the link; a refusal goes back to the accept page, which says why. */
export async function acceptInvitationAction(form: FormData): Promise<void> {
  const token = field(form, "token")
  const refusal = await refusalOf(() => organizationsApi.acceptInvitation(token))
  if (refusal) redirect(`/organizations/accept?${new URLSearchParams({ token, notice: refusal })}`)
  redirect("/organizations?notice=Joined")
}
