import { notFound } from "next/navigation"
import type { ReactNode } from "react"
import { mailboxEnabled, mailboxMessages, type MailboxMessage } from "../../../lib/mailbox"

export const dynamic = "force-dynamic"

/** The text of a message with its web links made clickable (nothing else is rendered as HTML). */
function withLinks(text: string): ReactNode[] {
  return text.split(/(https?:\/\/[^\s<>"]+)/g).map((part, i) =>
    i % 2 === 1 ? (
      <a key={i} href={part}>
        {part}
      </a>
    ) : (
      part
    ),
  )
}

/** Development only: the emails the app sent, caught by the local mailbox. */
export default async function Mailbox() {
  if (!mailboxEnabled()) notFound()
  let messages: MailboxMessage[] | null = null
  try {
    messages = await mailboxMessages()
  } catch {
    // Shown below: the launcher that ran the mailbox has stopped.
  }
  return (
    <>
      <h1>Mailbox</h1>
      <p className="muted">
        Development only: every email the app sends goes to a local SMTP server, and shows here. Reload the page when you
        expect a new one.
      </p>
      {messages === null ? (
        <p role="alert" className="error">
          The local mailbox does not answer. Start the app with npm start.
        </p>
      ) : messages.length === 0 ? (
        <p data-testid="empty-mailbox">No messages yet.</p>
      ) : (
        messages.map((message) => (
          <section key={message.id} aria-label={message.subject} data-testid="message">
            <h2>{message.subject}</h2>
            <p className="muted">
              To {message.to.join(", ")}, from {message.from}, {message.date}
            </p>
            <pre>{withLinks(message.text)}</pre>
          </section>
        ))
      )}
    </>
  )
}
