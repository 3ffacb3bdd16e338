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

export interface Instance {
  origin: string
  process: ChildProcess
  /** Everything the process wrote to stderr, for failure messages. */
  errors(): string
  stop(): Promise<void>
}

/** Starts one instance with `env` (DATABASE_URL or REDIS_URL, AUTH_SECRET); resolves once it listens. */
export function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, [serverFile], { env: { ...process.env, PORT: "0", ...env }, stdio: ["ignore", "pipe", "pipe"] })
  let stderr = ""
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve, reject) => {
    let stdout = ""
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString()
      const port = /listening on (\d+)/.exec(stdout)?.[1]
      if (!port) return
      resolve({
        origin: `http://127.0.0.1:${port}`,
        process: child,
        errors: () => stderr,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done()
            child.once("exit", () => done())
            child.kill("SIGTERM")
          }),
      })
    })
    child.once("exit", (code) => reject(new Error(`the app instance exited with ${code} before listening:\n${stderr}`)))
  })
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

  /** Signs in with the credentials provider through `origin` (with `password`, the right one by default); returns the response (a redirect). */
  async signIn(origin: string, email: string, password = "open sesame"): Promise<Response> {
    const { csrfToken } = (await (await this.request(origin, "/auth/csrf")).json()) as { csrfToken: string }
    return this.request(origin, "/auth/callback/credentials", { csrfToken, email, password, callbackUrl: `${origin}/welcome` })
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
