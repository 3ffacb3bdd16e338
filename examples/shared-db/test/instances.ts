/**
 * App instances as real processes (examples/shared-db/server.mjs, which runs on the built packages:
 * `npm test` builds first), each on a free loopback port, and a browser-like client with a cookie
 * jar that can talk to any of them.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { join } from "node:path"
import { atProvider } from "../../../packages/core/test/oauth/harness.js"

/** A port that was free a moment ago, for an instance whose URL must be known before it starts. */
export { freePort } from "@sesame/testing"

const serverFile = join(import.meta.dirname, "..", "server.mjs")

/** An email of the password provider, as the instance prints it (`mail <json>` on stdout). */
export interface Mail {
  kind: "verify-email" | "reset-password" | "account-exists" | "no-account"
  to: string
  url: string
}

export interface Instance {
  origin: string
  process: ChildProcess
  /** Everything the process wrote to stderr, for failure messages. */
  errors(): string
  /**
   * The next email this instance sends to `to` that no earlier call took: one already printed, or
   * the next to come (the line may arrive after the HTTP answer that caused it).
   */
  mail(to: string): Promise<Mail>
  stop(): Promise<void>
}

/** The emails one instance printed, each handed out once. */
class Mailbox {
  private readonly unread: Mail[] = []
  private readonly waiting: { to: string; take: (mail: Mail) => void }[] = []

  deliver(mail: Mail): void {
    const index = this.waiting.findIndex((w) => w.to === mail.to)
    if (index >= 0) this.waiting.splice(index, 1)[0]!.take(mail)
    else this.unread.push(mail)
  }

  next(to: string, errors: () => string): Promise<Mail> {
    const index = this.unread.findIndex((m) => m.to === to)
    if (index >= 0) return Promise.resolve(this.unread.splice(index, 1)[0]!)
    return new Promise((resolve, reject) => {
      const waiter = {
        to,
        take: (mail: Mail) => {
          clearTimeout(timer)
          resolve(mail)
        },
      }
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1)
        reject(new Error(`no email to ${to} within 10 s:\n${errors()}`))
      }, 10_000)
      this.waiting.push(waiter)
    })
  }
}

/** Starts one instance with `env` (DATABASE_URL or REDIS_URL, AUTH_SECRET); resolves once it listens. */
export function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, [serverFile], { env: { ...process.env, PORT: "0", ...env }, stdio: ["ignore", "pipe", "pipe"] })
  let stderr = ""
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  const errors = () => stderr
  const mailbox = new Mailbox()
  const instance = (port: string): Instance => ({
    origin: `http://127.0.0.1:${port}`,
    process: child,
    errors,
    mail: (to) => mailbox.next(to, errors),
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done()
        child.once("exit", () => done())
        child.kill("SIGTERM")
      }),
  })
  return new Promise((resolve, reject) => {
    let pending = ""
    child.stdout!.on("data", (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split("\n")
      pending = lines.pop()!
      for (const line of lines) {
        if (line.startsWith("mail ")) mailbox.deliver(JSON.parse(line.slice("mail ".length)) as Mail)
        const port = /^listening on (\d+)$/.exec(line)?.[1]
        if (port) resolve(instance(port))
      }
    })
    child.once("exit", (code) => reject(new Error(`the app instance exited with ${code} before listening:\n${stderr}`)))
  })
}

/** An attribute value of a built-in page, unescaped. */
function unescapeHtml(value: string): string {
  const entities: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&#96;": "`" }
  return value.replace(/&(?:amp|lt|gt|quot|#39|#96);/g, (entity) => entities[entity]!)
}

/** A browser: keeps the cookies each response sets and sends them to whichever instance it calls. */
export class Browser {
  readonly cookies = new Map<string, string>()

  async request(origin: string, path: string, form?: Record<string, string>): Promise<Response> {
    const headers: Record<string, string> = { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") }
    if (form) headers["content-type"] = "application/x-www-form-urlencoded"
    const response = await fetch(`${origin}${path}`, {
      method: form ? "POST" : "GET",
      headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
      redirect: "manual",
      // A request that hangs is a failure of its own, reported as such.
      signal: AbortSignal.timeout(15_000),
    })
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";")
      const name = pair.slice(0, pair.indexOf("="))
      if (/Max-Age=0/i.test(cookie)) this.cookies.delete(name)
      else this.cookies.set(name, pair.slice(pair.indexOf("=") + 1))
    }
    return response
  }

  /**
   * Signs in through `origin` with `provider` (the credentials provider by default, with its right
   * password by default); returns the response (a redirect, to `${origin}/welcome` on success).
   */
  async signIn(origin: string, email: string, password = "open sesame", provider = "credentials"): Promise<Response> {
    const { csrfToken } = (await (await this.request(origin, "/auth/csrf")).json()) as { csrfToken: string }
    return this.request(origin, `/auth/callback/${provider}`, { csrfToken, email, password, callbackUrl: `${origin}/welcome` })
  }

  /**
   * Opens the page at `url` (a path on `origin`, or an absolute URL) and submits its form as a
   * person would: its hidden fields (the CSRF token the page minted, a link's token…) as they are,
   * plus `fields`, posted to its `action`. Returns the answer to the POST.
   */
  async submit(origin: string, url: string, fields: Record<string, string> = {}): Promise<Response> {
    const page = new URL(url, origin)
    const response = await this.request(page.origin, `${page.pathname}${page.search}`)
    const html = await response.text()
    if (response.status !== 200) throw new Error(`${page.href} answered ${response.status}: ${html.slice(0, 200)}`)
    const form = /<form action="([^"]*)" method="POST">([\s\S]*?)<\/form>/.exec(html)
    if (!form) throw new Error(`${page.href} has no form`)
    const hidden: Record<string, string> = {}
    for (const [, name, value] of form[2]!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) hidden[unescapeHtml(name!)] = unescapeHtml(value!)
    const action = new URL(unescapeHtml(form[1]!))
    return this.request(action.origin, `${action.pathname}${action.search}`, { ...hidden, ...fields })
  }

  /**
   * Signs in with the OpenID provider "idp": starts at the app, plays the browser at the provider
   * (which logs `loginHint` in by itself), and returns the app's answer to the callback.
   */
  async signInWithIdp(origin: string, loginHint: string): Promise<Response> {
    const { csrfToken } = (await (await this.request(origin, "/auth/csrf")).json()) as { csrfToken: string }
    const start = await this.request(origin, "/auth/signin/idp", { csrfToken, callbackUrl: `${origin}/welcome`, login_hint: loginHint })
    const authorization = start.headers.get("location")
    if (start.status !== 302 || !authorization) throw new Error(`the sign-in did not start: ${start.status}`)
    const answer = await atProvider(authorization, `${origin}/auth/callback/idp`)
    if (answer.kind !== "redirect") throw new Error("the provider answered with a form; this app uses the query response mode")
    const callback = new URL(answer.url)
    return this.request(origin, `${callback.pathname}${callback.search}`)
  }

  /** The session as `origin` sees it (null when signed out). */
  async session(origin: string): Promise<{ user?: { email?: string } } | null> {
    return (await (await this.request(origin, "/auth/session")).json()) as { user?: { email?: string } } | null
  }

  async signOut(origin: string): Promise<Response> {
    const { csrfToken } = (await (await this.request(origin, "/auth/csrf")).json()) as { csrfToken: string }
    return this.request(origin, "/auth/signout", { csrfToken })
  }
}
