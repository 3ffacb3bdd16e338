/**
 * Helpers for the email tests: a provider that records what it was asked to send, and the steps a
 * browser takes (ask for a link, open it, confirm it).
 */
import type { AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Email, { memoryRateLimitStore, type EmailOptions, type SendVerificationRequestParams } from "@sesame/core/providers/email"
import { CookieJar, csrfToken, recordingLogger, secret, send } from "../helpers.js"

export { CookieJar }

/** An `Email` provider whose sends are recorded; it gets its own rate-limit store, so tests do not share counts. */
export function recordingEmail(options: Partial<EmailOptions> = {}) {
  const sent: SendVerificationRequestParams[] = []
  const provider = Email({
    rateLimit: { store: memoryRateLimitStore() },
    async sendVerificationRequest(params) {
      sent.push(params)
    },
    ...options,
  })
  return { provider, sent }
}

/**
 * A configuration with `MemoryAdapter` (database sessions unless `session` says otherwise) and a
 * recording logger (`logs`), so that expected errors are checked rather than printed.
 */
export function emailConfig(providers: AuthConfig["providers"], overrides: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const { lines: logs, logger } = recordingLogger()
  const config: AuthConfig = { secret, trustHost: true, adapter, providers, logger, ...overrides }
  return { config, adapter, logs }
}

export interface LinkRequestOptions {
  provider?: string
  callbackUrl?: string
  headers?: Record<string, string>
}

/** Posts the sign-in form for `email`, with a CSRF token fetched into `jar`. */
export async function requestLink(config: AuthConfig, jar: CookieJar, email: string, options: LinkRequestOptions = {}): Promise<Response> {
  const token = await csrfToken(config, jar)
  const form: Record<string, string> = { csrfToken: token, email }
  if (options.callbackUrl) form.callbackUrl = options.callbackUrl
  return send(config, `/auth/signin/${options.provider ?? "email"}`, { jar, form, headers: options.headers })
}

const entities: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&#96;": "`" }

function unescapeHtml(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39|#96);/g, (entity) => entities[entity]!)
}

/** The confirmation page's form: where it posts and its hidden fields. */
export function confirmationForm(page: string): { action: string; fields: Record<string, string> } {
  const action = /<form action="([^"]*)" method="POST">/.exec(page)?.[1]
  if (action === undefined) throw new Error("The page has no POST form.")
  const fields: Record<string, string> = {}
  for (const [, name, value] of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[name!] = unescapeHtml(value!)
  return { action: unescapeHtml(action), fields }
}

/** Opens the link in the browser of `jar`: the confirmation page. */
export function openLink(config: AuthConfig, jar: CookieJar, link: string, headers?: Record<string, string>): Promise<Response> {
  return send(config, link, { jar, headers })
}

/** Posts the confirmation form of an opened link. */
export async function confirmPage(config: AuthConfig, jar: CookieJar, page: Response): Promise<Response> {
  const { action, fields } = confirmationForm(await page.text())
  return send(config, action, { jar, form: fields })
}

/** What a person does with the email: open the link, then click the button. */
export async function followLink(config: AuthConfig, jar: CookieJar, link: string): Promise<Response> {
  const page = await openLink(config, jar, link)
  if (page.status !== 200) throw new Error(`Opening the link answered ${page.status}.`)
  return confirmPage(config, jar, page)
}

/** The session of `jar`'s browser, or null. */
export async function sessionOf(config: AuthConfig, jar: CookieJar): Promise<{ user?: { email?: string | null } } | null> {
  return (await send(config, "/auth/session", { jar })).json() as Promise<{ user?: { email?: string | null } } | null>
}

/** The one link of a recording provider's last send. */
export function lastLink(sent: readonly SendVerificationRequestParams[]): string {
  const last = sent.at(-1)
  if (!last) throw new Error("Nothing was sent.")
  return last.url
}

/** `adapter` with `before(method)` awaited ahead of every method call: to record the calls, or to slow them. */
export function interceptAdapter<A extends object>(adapter: A, before: (method: string) => void | Promise<void>): A {
  return new Proxy(adapter, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown
      // The generic store's operations are recorded as `store.<operation> <model>`.
      if (name === "store" && value && typeof value === "object") {
        return interceptAdapter(value, (operation) => before(`store.${operation}`))
      }
      if (typeof value !== "function" || typeof name !== "string") return value
      return async (...args: unknown[]) => {
        await before(name)
        return (value as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  })
}
