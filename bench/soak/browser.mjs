/**
 * A browser of a virtual user: its own cookie jar, sent to whichever instance it calls (they share
 * one cookie domain, 127.0.0.1), redirects not followed. Every request is timed, body included, and
 * recorded under its operation kind; one that fails (network error, timeout, a status it was not
 * expected to answer) is recorded as a failed request and throws.
 *
 * A 503 is what Sesame answers while its storage cannot be reached: the browser waits as its
 * `Retry-After` says (at most `retryWaitCapMs`: a user does not wait 3 s staring at a page, and a
 * short wait shows how soon the service is back) and sends the same request again, as a client
 * that honours 503 would, for up to `retryForMs`. Each 503 is still a failed request (report.mjs
 * judges whether it fell inside the outage); one without `Retry-After`, or one that clears the
 * session cookie, is recorded as a failure of its own kind.
 */
import { Recorded } from "./stats.mjs"

export const sessionCookie = "sesame.session-token"
/** A request that hangs is a failure of its own. */
const requestTimeoutMs = 15_000
/** The longest wait before trying a 503 again, whatever its Retry-After. */
const retryWaitCapMs = 1_000
/** The wait before trying a 503 without Retry-After again. */
const retryWaitDefaultMs = 250
/** How long a request is tried again while it answers 503: past that, the step fails. */
const retryForMs = 30_000

/** An attribute value of a built-in page, unescaped. */
function unescapeHtml(value) {
  const entities = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&#96;": "`" }
  return value.replace(/&(?:amp|lt|gt|quot|#39|#96);/g, (entity) => entities[entity])
}

/** How a failed answer is labelled: its status, and where a redirect went (its `error` when it has one). */
export function answerLabel(status, location) {
  if (!location) return String(status)
  const url = new URL(location, "http://soak.invalid")
  const error = url.searchParams.get("error")
  return `${status}→${error ? `error=${error}` : url.pathname}`
}

export class Browser {
  cookies = new Map()
  /** The last answer's times, for a failure the caller finds in it (a null session, a wrong redirect). */
  last = { start: 0, end: 0 }

  /** @param {import("./stats.mjs").Stats} stats @param {string} userAgent */
  constructor(stats, userAgent) {
    this.stats = stats
    this.userAgent = userAgent
  }

  /**
   * Sends a request (`form` or `json` makes it a POST) and reads the answer, trying a 503 again (see
   * above). Throws (`Recorded`) unless its status ends up one of `expect`; the answer says whether
   * it was `retried`.
   */
  async request(kind, url, { form, json, expect = [200] } = {}) {
    const firstTry = performance.now()
    for (let retried = false; ; retried = true) {
      const answer = await this.#send(kind, url, { form, json })
      const { status, start, end, headers, text } = answer
      if (expect.includes(status)) {
        this.stats.succeeded(end)
        // `retried`: an attempt before this one answered 503, and may have done its work (a write
        // whose answer the outage cut off), so what this one finds may already be done.
        return { ...answer, retried }
      }
      const failed = (label, detail) => {
        this.stats.failure(label, kind, { start, end })
        return new Recorded(`${kind}: ${url} answered ${label}${detail ? `: ${detail}` : ""}`)
      }
      if (status !== 503) throw failed(answerLabel(status, answer.location), text.slice(0, 200))
      const retryAfter = headers.get("retry-after")
      // One record per answer; what a 503 must not do makes a label of its own.
      const wrongs = [retryAfter === null && "without Retry-After", answer.clearedSession && "cleared the session cookie"].filter(Boolean)
      this.stats.failure(wrongs.length ? `503 ${wrongs.join(", ")}` : "503", kind, { start, end })
      if (end - firstTry > retryForMs) throw new Recorded(`${kind}: ${url} answered 503 for ${retryForMs / 1000} s: ${text.slice(0, 200)}`)
      const seconds = Number(retryAfter)
      const waitMs = retryAfter !== null && Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, retryWaitCapMs) : retryWaitDefaultMs
      await new Promise((resolve) => setTimeout(resolve, waitMs))
    }
  }

  /** One request, its cookies taken as a browser takes them (from any answer, a 503's too). */
  async #send(kind, url, { form, json }) {
    const headers = { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "), "user-agent": this.userAgent }
    let body
    if (form) {
      headers["content-type"] = "application/x-www-form-urlencoded"
      body = new URLSearchParams(form).toString()
    } else if (json) {
      headers["content-type"] = "application/json"
      body = JSON.stringify(json)
    }
    const start = performance.now()
    let response, text
    try {
      response = await fetch(url, { method: body ? "POST" : "GET", headers, body, redirect: "manual", signal: AbortSignal.timeout(requestTimeoutMs) })
      text = await response.text()
    } catch (error) {
      const label = error.name === "TimeoutError" ? "timeout" : "network error"
      this.stats.failure(label, kind, { start, end: performance.now() })
      throw new Recorded(`${kind}: ${url}: ${error.cause?.message ?? error.message}`)
    }
    const end = performance.now()
    this.stats.request(kind, end - start)
    this.last = { start, end }
    let clearedSession = false
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";")
      const name = pair.slice(0, pair.indexOf("="))
      if (/Max-Age=0/i.test(cookie)) {
        clearedSession ||= name === sessionCookie && this.cookies.has(name)
        this.cookies.delete(name)
      } else this.cookies.set(name, pair.slice(pair.indexOf("=") + 1))
    }
    const { status, headers: answerHeaders } = response
    return { status, start, end, headers: answerHeaders, clearedSession, location: answerHeaders.get("location"), text, json: () => JSON.parse(text) }
  }

  async csrf(origin) {
    return (await this.request("csrf", `${origin}/auth/csrf`)).json().csrfToken
  }

  /** The session `origin` answers for this browser's cookies: null when signed out. */
  async session(origin, kind = "session") {
    return (await this.request(kind, `${origin}/auth/session`)).json()
  }

  /** Opens a page with a form (an email link's confirmation) and submits it as it is: one POST, to its action. */
  async submit(kind, url) {
    const page = await this.request(`${kind} page`, url)
    const form = /<form action="([^"]*)" method="POST">([\s\S]*?)<\/form>/.exec(page.text)
    if (!form) {
      this.stats.failure(`${page.status} without a form`, `${kind} page`, page)
      throw new Recorded(`${kind}: ${url} has no form: ${page.text.slice(0, 200)}`)
    }
    const fields = {}
    for (const [, name, value] of form[2].matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields[unescapeHtml(name)] = unescapeHtml(value)
    return this.request(kind, unescapeHtml(form[1]), { form: fields, expect: [302, 303] })
  }
}
