/**
 * The app the two-factor browser tests talk to: `Auth()` under `/auth` with a memory adapter, the
 * password provider (cheap hashing, emails recorded), an email provider that sends a code beside
 * the link (messages recorded), devices remembered for an hour, and `/`, a plain page that shows
 * who is signed in and with which factors: where every sign-in lands.
 */
import { Auth, type AuthConfig, type PasswordEmailParams } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { argon2id } from "@sesame/core/password"
import Email, { memoryRateLimitStore, type SendVerificationRequestParams } from "@sesame/core/providers/email"
import Password from "@sesame/core/providers/password"
import { serve, type TestServer } from "@sesame/testing"
import { secret } from "../helpers.js"
import { storePassword } from "../../src/password/storage.js"

/** The password of every user made with `addUser`. */
export const password = "correct horse battery"

const hasher = argon2id({ memoryCost: 64, timeCost: 1 })

/** What `/` shows: the session as the app's session callback shapes it. */
export interface ShownSession {
  user?: { email?: string | null }
  factors?: string[]
}

const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => escapes[c]!)

/** The landing page: a heading a person reads, and the session as JSON for the test to read. */
function landing(session: ShownSession | null): Response {
  const heading = session?.user?.email ? `Signed in as ${session.user.email}` : "Not signed in"
  return new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Home</title></head><body><main><h1>${escape(heading)}</h1><pre id="session">${escape(
      JSON.stringify(session),
    )}</pre></main></body></html>`,
    { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } },
  )
}

export interface TwoFactorApp extends TestServer {
  config: AuthConfig
  adapter: ReturnType<typeof MemoryAdapter>
  /** What the password provider emailed. */
  passwordMails: PasswordEmailParams[]
  /** What the email provider was asked to send (each with its `code`). */
  emails: SendVerificationRequestParams[]
  /** A confirmed user who signs in with `password`. */
  addUser(email: string): Promise<void>
}

export async function startTwoFactorApp(): Promise<TwoFactorApp> {
  const adapter = MemoryAdapter()
  const passwordMails: PasswordEmailParams[] = []
  const emails: SendVerificationRequestParams[] = []
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    providers: [
      Password({ sendEmail: (params) => void passwordMails.push(params), hasher }),
      Email({
        code: true,
        rateLimit: { store: memoryRateLimitStore() },
        sendVerificationRequest: (params) => void emails.push(params),
      }),
    ],
    twoFactor: { rememberDevice: 3600 },
    // The factors of a sign-in are the app's to show: copied into the session here.
    callbacks: { session: ({ session, factors }) => ({ ...session, factors }) },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  }
  const server = await serve(async (request) => {
    const url = new URL(request.url)
    if (url.pathname.startsWith("/auth/")) return Auth(request, config)
    if (url.pathname !== "/") return new Response("not found", { status: 404 })
    // The session as the app would read it: the same cookies, sent to the session endpoint.
    const sessionRequest = new Request(new URL("/auth/session", url), { headers: { cookie: request.headers.get("cookie") ?? "" } })
    const session = (await (await Auth(sessionRequest, config)).json()) as ShownSession | null
    return landing(session)
  })
  async function addUser(email: string): Promise<void> {
    const user = await adapter.createUser({ id: crypto.randomUUID(), email, name: null, emailVerified: new Date() })
    await storePassword(adapter, { userId: user.id, hash: await hasher.hash(password), updatedAt: new Date() })
  }
  return { ...server, config, adapter, passwordMails, emails, addUser }
}
