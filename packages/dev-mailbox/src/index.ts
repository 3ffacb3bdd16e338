/**
 * `@sesame/dev-mailbox`: a real SMTP server on 127.0.0.1 that keeps what it receives in memory.
 *
 * Tests point an email provider at it and read the parsed messages back; the demo app shows them on
 * a `/dev/mailbox` page. Messages go through `smtp-server` and `mailparser` exactly as a mail
 * server would see them, so a test that finds a link here has proven the link survives SMTP
 * (quoted-printable line folding included), which a mocked transport cannot show.
 *
 * The server listens only on the loopback interface, accepts any sender, any login and plain
 * (non-TLS) connections: it is for development and tests, never for real mail.
 *
 * @example
 * ```ts
 * const mailbox = await startMailbox()
 * // nodemailer: createTransport(mailbox.url) — or Nodemailer({ server: mailbox.url, from: "…" })
 * const message = await mailbox.waitFor("ada@example.com", { timeout: 5000 })
 * await mailbox.close()
 * ```
 *
 * @module
 */
import { randomUUID } from "node:crypto"
import type { AddressInfo } from "node:net"
import { simpleParser, type AddressObject } from "mailparser"
import { SMTPServer, type SMTPServerAddress } from "smtp-server"

/** One received message. Plain data: it survives `JSON.stringify` as it is. */
export interface MailboxMessage {
  id: string
  /** The `From` header as text (`"Sesame" <no-reply@example.com>`). */
  from: string
  /** The envelope recipients the server accepted, lower case. */
  to: string[]
  subject: string
  /** The plain-text part ("" when the message has none). */
  text: string
  /** The HTML part ("" when the message has none). */
  html: string
  /** When the message was received, ISO 8601. */
  date: string
}

export interface MailboxOptions {
  /** The TCP port; 0 (the default) picks a free one. */
  port?: number
  /**
   * Recipients to refuse with `550` at `RCPT TO`, as a mail server refuses an unknown mailbox: a
   * list of addresses (case-insensitive) or a predicate.
   */
  refuse?: readonly string[] | ((address: string) => boolean)
  /** How many messages to keep; the oldest are dropped beyond it. Default 1000. */
  limit?: number
}

export interface WaitOptions {
  /** Milliseconds to wait before failing. Default 5000. */
  timeout?: number
}

export interface Mailbox {
  readonly host: "127.0.0.1"
  readonly port: number
  /** An SMTP URL for nodemailer: `smtp://127.0.0.1:<port>`. */
  readonly url: string
  /** Every message kept, oldest first (copies). */
  messages(): MailboxMessage[]
  /**
   * The oldest message to `to` that no earlier `waitFor` returned, waiting for one to arrive when
   * there is none. Rejects after `timeout` milliseconds.
   */
  waitFor(to: string, options?: WaitOptions): Promise<MailboxMessage>
  /** Forgets every message. */
  clear(): void
  /** Stops the server and fails pending `waitFor`s. */
  close(): Promise<void>
}

const host = "127.0.0.1"

interface Waiter {
  to: string
  resolve: (message: MailboxMessage) => void
  reject: (error: Error) => void
  timer: NodeJS.Timeout
}

function addressText(value: AddressObject | AddressObject[] | undefined): string {
  if (!value) return ""
  return (Array.isArray(value) ? value : [value]).map((a) => a.text).join(", ")
}

function refusalPredicate(refuse: MailboxOptions["refuse"]): (address: string) => boolean {
  if (typeof refuse === "function") return refuse
  const refused = new Set((refuse ?? []).map((a) => a.toLowerCase()))
  return (address) => refused.has(address.toLowerCase())
}

/** Starts a mailbox; resolves once the server listens. */
export async function startMailbox(options: MailboxOptions = {}): Promise<Mailbox> {
  const refused = refusalPredicate(options.refuse)
  const limit = options.limit ?? 1000
  let kept: MailboxMessage[] = []
  const returned = new Set<string>()
  const waiters = new Set<Waiter>()

  const deliver = (message: MailboxMessage) => {
    kept.push(message)
    if (kept.length > limit) kept = kept.slice(kept.length - limit)
    for (const waiter of waiters) {
      if (!message.to.includes(waiter.to) || returned.has(message.id)) continue
      returned.add(message.id)
      waiters.delete(waiter)
      clearTimeout(waiter.timer)
      waiter.resolve(structuredClone(message))
    }
  }

  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    allowInsecureAuth: true,
    // nodemailer would upgrade to TLS when offered; a loopback test server has no certificate to offer.
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? "dev" })
    },
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      if (refused(address.address)) {
        const error: Error & { responseCode?: number } = new Error(`Mailbox unavailable: ${address.address}`)
        error.responseCode = 550
        callback(error)
        return
      }
      callback()
    },
    onData(stream, session, callback) {
      // The message is parsed and kept before the server answers 250, so a sender that awaited
      // `sendMail` finds it in `messages()` straight away.
      simpleParser(stream)
        .then((parsed) => {
          deliver({
            id: randomUUID(),
            from: addressText(parsed.from),
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
            date: new Date().toISOString(),
          })
          callback()
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))))
    },
  })

  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject)
      resolve((server.server.address() as AddressInfo).port)
    })
  })

  return {
    host,
    port,
    url: `smtp://${host}:${port}`,
    messages: () => kept.map((m) => structuredClone(m)),
    waitFor(to, { timeout = 5000 } = {}) {
      const recipient = to.toLowerCase()
      const found = kept.find((m) => m.to.includes(recipient) && !returned.has(m.id))
      if (found) {
        returned.add(found.id)
        return Promise.resolve(structuredClone(found))
      }
      return new Promise<MailboxMessage>((resolve, reject) => {
        const waiter: Waiter = {
          to: recipient,
          resolve,
          reject,
          timer: setTimeout(() => {
            waiters.delete(waiter)
            reject(new Error(`No message to ${to} arrived within ${timeout} ms.`))
          }, timeout),
        }
        waiters.add(waiter)
      })
    },
    clear() {
      kept = []
      returned.clear()
    },
    close() {
      for (const waiter of waiters) {
        clearTimeout(waiter.timer)
        waiter.reject(new Error("The mailbox was closed."))
      }
      waiters.clear()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
