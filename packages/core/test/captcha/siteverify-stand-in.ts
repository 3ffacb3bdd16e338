/**
 * A local stand-in for the captcha providers' siteverify endpoints, speaking each one's documented
 * API on its own path: a form-encoded POST of `secret` and `response` (hCaptcha also `sitekey`;
 * `remoteip` and Turnstile's `idempotency_key` are accepted and recorded), answered with JSON
 * `{ success, "error-codes", challenge_ts, hostname, … }` (reCAPTCHA v3 and Turnstile add `action`,
 * v3 a `score`).
 *
 * Tokens are issued by the test (`issue`), each good once: a second verification answers
 * `timeout-or-duplicate` (hCaptcha: `invalid-or-already-seen-response`), as the providers do. An
 * unknown token is `invalid-input-response`, a missing one `missing-input-response`, an expired one
 * `timeout-or-duplicate` (hCaptcha: `expired-input-response`), a wrong secret `invalid-input-secret`.
 * `mode` makes it fail as a real outage would: a 500, or an answer that is not JSON.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"

export type StandInProvider = "turnstile" | "hcaptcha" | "recaptcha"

export const standInSecret = "0x-stand-in-secret-key"
export const standInSiteKey = "0x-stand-in-site-key"

/** The path of each provider's siteverify on the stand-in, as on the real host. */
const paths: Record<StandInProvider, string> = {
  turnstile: "/turnstile/v0/siteverify",
  hcaptcha: "/siteverify",
  recaptcha: "/recaptcha/api/siteverify",
}

export interface IssueOptions {
  /** The page's host name the token was made on. Default: `localhost`. */
  hostname?: string
  /** reCAPTCHA v3 / Turnstile: the action it was made for. */
  action?: string
  /** reCAPTCHA v3: the score. */
  score?: number
  /** Made too long ago. */
  expired?: boolean
}

interface Issued extends IssueOptions {
  used: boolean
}

export interface Verification {
  provider: StandInProvider
  fields: Record<string, string>
}

export interface SiteverifyStandIn {
  /** The siteverify URL of `provider` on the stand-in. */
  url(provider: StandInProvider): string
  /** A new token, good for one verification. */
  issue(options?: IssueOptions): string
  /** `ok`: answers as documented; `down`: `500`; `garbage`: `200` with HTML. */
  mode: "ok" | "down" | "garbage"
  /** Every verification asked, in order. */
  readonly verifications: Verification[]
  close(): Promise<void>
}

export async function startSiteverify(): Promise<SiteverifyStandIn> {
  const tokens = new Map<string, Issued>()
  const verifications: Verification[] = []
  let counter = 0
  const state: { mode: SiteverifyStandIn["mode"] } = { mode: "ok" }

  const answer = (provider: StandInProvider, fields: Record<string, string>): Record<string, unknown> => {
    const fail = (code: string) => ({ success: false, "error-codes": [code] })
    if (!fields.secret) return fail("missing-input-secret")
    if (fields.secret !== standInSecret) return fail("invalid-input-secret")
    if (provider === "hcaptcha" && fields.sitekey !== undefined && fields.sitekey !== standInSiteKey) return fail("sitekey-secret-mismatch")
    if (!fields.response) return fail("missing-input-response")
    const issued = tokens.get(fields.response)
    if (!issued) return fail("invalid-input-response")
    if (issued.used) return fail(provider === "hcaptcha" ? "invalid-or-already-seen-response" : "timeout-or-duplicate")
    issued.used = true
    if (issued.expired) return fail(provider === "hcaptcha" ? "expired-input-response" : "timeout-or-duplicate")
    const base = { success: true, challenge_ts: new Date().toISOString(), hostname: issued.hostname ?? "localhost", "error-codes": [] }
    if (provider === "turnstile") return { ...base, action: issued.action ?? "", cdata: "", metadata: {} }
    if (provider === "recaptcha" && issued.score !== undefined) return { ...base, score: issued.score, action: issued.action ?? "" }
    return base
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const provider = (Object.keys(paths) as StandInProvider[]).find((p) => paths[p] === req.url)
      if (req.method !== "POST" || !provider) {
        res.writeHead(404).end()
        return
      }
      const fields = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")))
      verifications.push({ provider, fields })
      if (state.mode === "down") {
        res.writeHead(500, { "content-type": "text/plain" }).end("internal error")
        return
      }
      if (state.mode === "garbage") {
        res.writeHead(200, { "content-type": "text/html" }).end("<html>captive portal</html>")
        return
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer(provider, fields)))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: (provider) => `${origin}${paths[provider]}`,
    issue(options = {}) {
      const token = `stand-in-token-${++counter}-${crypto.randomUUID()}`
      tokens.set(token, { ...options, used: false })
      return token
    },
    get mode() {
      return state.mode
    },
    set mode(mode) {
      state.mode = mode
    },
    verifications,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  }
}
