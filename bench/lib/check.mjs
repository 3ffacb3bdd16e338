/**
 * The check every measured response passes: status 200 and the session of the expected user (its
 * `user.email`), or `null` for a request without a session cookie. A floor answers the same JSON.
 */

/** What is wrong with an answer, or null when it is right. `body` is the text, or an object already built. */
export function problem(status, body, expect) {
  if (status !== 200) return `status ${status}: ${String(typeof body === "string" ? body : JSON.stringify(body)).slice(0, 160)}`
  let value = body
  if (typeof body === "string") {
    try {
      value = JSON.parse(body)
    } catch {
      return `not JSON: ${body.slice(0, 160)}`
    }
  }
  if (expect === null) return value === null ? null : `expected null, got ${JSON.stringify(value).slice(0, 160)}`
  return value?.user?.email === expect ? null : `expected user.email ${expect}, got ${JSON.stringify(value).slice(0, 160)}`
}

/** Counts checked answers and wrong ones, keeping the first wrong one's description. */
export class Tally {
  checked = 0
  wrong = 0
  /** @type {string | undefined} */
  first = undefined

  constructor(expect) {
    this.expect = expect
  }

  record(status, body) {
    this.checked++
    const wrong = problem(status, body, this.expect)
    if (wrong) {
      this.wrong++
      this.first ??= wrong
    }
  }

  toJSON() {
    return { checked: this.checked, wrong: this.wrong, ...(this.first ? { first: this.first } : {}) }
  }
}
