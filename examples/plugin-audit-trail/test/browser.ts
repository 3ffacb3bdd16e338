/**
 * A browser as far as the audit trail's tests need one: cookies kept between requests sent
 * through `Auth()`, a CSRF token, and a sign-in with the test's credentials provider.
 */
import { Auth, type AuthConfig } from "@sesame/core"

export const origin = "http://localhost:3000"

export class Browser {
  readonly cookies = new Map<string, string>()

  constructor(readonly config: AuthConfig) {}

  async send(path: string, init: { form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    if (this.cookies.size > 0) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "))
    let body: string | undefined
    if (init.form) {
      body = new URLSearchParams(init.form).toString()
      headers.set("content-type", "application/x-www-form-urlencoded")
    }
    const response = await Auth(new Request(`${origin}${path}`, { method: body === undefined ? "GET" : "POST", headers, body }), this.config)
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";")
      const [name, value] = [pair!.slice(0, pair!.indexOf("=")).trim(), pair!.slice(pair!.indexOf("=") + 1).trim()]
      if (attributes.some((a) => /^\s*max-age=0$/i.test(a))) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return response
  }

  async csrf(): Promise<string> {
    return ((await (await this.send("/auth/csrf")).json()) as { csrfToken: string }).csrfToken
  }

  /** Signs in as `username` with the credentials provider of {@link testConfig}. */
  async signIn(username: string): Promise<Response> {
    return this.send("/auth/callback/credentials", { form: { csrfToken: await this.csrf(), username } })
  }

  /** The request a server function is called with: this browser's cookies. */
  request(): Request {
    return new Request(`${origin}/account`, { headers: { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") } })
  }
}
