/**
 * The local mailbox that `npm start` runs beside the app (`@sesame/dev-mailbox`): the app reads its
 * messages over loopback HTTP, from `DEV_MAILBOX_URL` with the bearer token `DEV_API_TOKEN`.
 * Unset outside development, and then the mailbox page does not exist.
 */
import type { MailboxMessage } from "@sesame/dev-mailbox"

export type { MailboxMessage }

export const mailboxEnabled = () => Boolean(process.env.DEV_MAILBOX_URL && process.env.DEV_API_TOKEN)

/** The messages, newest first. Throws when the mailbox does not answer. */
export async function mailboxMessages(): Promise<MailboxMessage[]> {
  const response = await fetch(`${process.env.DEV_MAILBOX_URL}/messages`, {
    headers: { authorization: `Bearer ${process.env.DEV_API_TOKEN}` },
    cache: "no-store",
  })
  if (!response.ok) throw new Error(`The mailbox answered ${response.status}`)
  const messages = (await response.json()) as MailboxMessage[]
  return messages.reverse()
}
