/**
 * A browser of a virtual user: its own cookie jar, sent to whichever instance it calls (they share
 * one cookie domain, 127.0.0.1), redirects not followed. Every request is timed, body included, and
 * recorded under its operation kind; one that fails (network error, timeout, a status it was not
 * expected to answer) throws.
 */

export const sessionCookie = "sesame.session-token"
/** A request that hangs is a failure of its own. */
const requestTimeoutMs = 15_000

/** An attribute value of a built-in page, unescaped. */
function unescapeHtml(value) {
  const entities = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&#96;": "`" }
  return value.replace(/&(?:amp|lt|gt|quot|#39|#96);/g, (entity) => entities[entity])
}

export class Browser {
  cookies = new Map()

  /** @param {import("./stats.mjs").Stats} stats @param {string} userAgent */
  constructor(stats, userAgent) {
    this.stats = stats
    this.userAgent = userAgent
  }

  /**
   * Sends a request (`form` or `json` makes it a POST) and reads the answer. Throws unless its
   * status is one of `expect`.
   */
  async request(kind, url, { form, json, expect = [200] } = {}) {
    const headers = { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "), "user-agent": this.userAgent }
    let body
    if (form) {
      headers["content-type"] = "application/x-www-form-urlencoded"
      body = new URLSearchParams(form).toString()
    } else if (json) {
      headers["content-type"] = "application/json"
      body = JSON.stringify(json)
    }
    const started = performance.now()
    let response, text
    try {
      response = await fetch(url, { method: body ? "POST" : "GET", headers, body, redirect: "manual", signal: AbortSignal.timeout(requestTimeoutMs) })
      text = await response.text()
    } catch (error) {
      throw new Error(`${kind}: ${url}: ${error.cause?.message ?? error.message}`)
    }
    this.stats.request(kind, performance.now() - started)
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";")
      const name = pair.slice(0, pair.indexOf("="))
      if (/Max-Age=0/i.test(cookie)) this.cookies.delete(name)
      else this.cookies.set(name, pair.slice(pair.indexOf("=") + 1))
    }
    if (!expect.includes(response.status)) throw new Error(`${kind}: ${url} answered ${response.status}: ${text.slice(0, 200)}`)
    return { status: response.status, location: response.headers.get("location"), text, json: () => JSON.parse(text) }
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
    if (!form) throw new Error(`${kind}: ${url} has no form`)
    const fields = {}
    for (const [, name, value] of form[2].matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields[unescapeHtml(name)] = unescapeHtml(value)
    return this.request(kind, unescapeHtml(form[1]), { form: fields, expect: [302, 303] })
  }
}
