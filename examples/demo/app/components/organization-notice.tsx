/** What the organizations actions' `?notice=` means: what was done, or Sesame's refusal in words. */
export const organizationNotices: Record<string, { text: string; error: boolean }> = {
  Created: { text: "The organization was created. You are its owner.", error: false },
  Activated: { text: "That organization is now your active one.", error: false },
  Invited: { text: "The invitation was emailed.", error: false },
  Cancelled: { text: "The invitation was cancelled: its link no longer works.", error: false },
  Joined: { text: "You joined the organization.", error: false },
  InvalidInput: { text: "Something in the form is missing or not valid.", error: true },
  NotFound: { text: "That organization or invitation does not exist, or is not yours to see.", error: true },
  Forbidden: { text: "Your roles in this organization do not allow that.", error: true },
  CreateNotAllowed: { text: "You may not create organizations.", error: true },
  SlugTaken: { text: "Another organization has that name already.", error: true },
  AlreadyMember: { text: "That person is a member already.", error: true },
  AlreadyInvited: { text: "That address has a pending invitation already.", error: true },
  TooManySends: { text: "That invitation was sent too many times.", error: true },
  SendFailed: { text: "The invitation could not be emailed, so it was not kept. Try again.", error: true },
  Conflict: { text: "The member changed meanwhile. Try again.", error: true },
  NotSignedIn: { text: "Sign in first.", error: true },
  WrongAccount: { text: "This invitation is for another address: sign in with the address it was sent to.", error: true },
  EmailUnverified: { text: "Your address is not confirmed yet: confirm it (sign in with an emailed link), then accept.", error: true },
  InvitationInvalid: { text: "This invitation cannot be used: it may have expired, been used or been cancelled.", error: true },
}

export function OrganizationNotice({ notice }: { notice: string | string[] | undefined }) {
  const message = typeof notice === "string" ? organizationNotices[notice] : undefined
  if (!message) return null
  return (
    <p role="status" data-testid="notice" className={message.error ? "error" : undefined}>
      {message.text}
    </p>
  )
}
