/**
 * The breached-password check against a local server that speaks the Pwned Passwords range
 * protocol: padded answers, CRLF lines, upper-case suffixes; and its failing open.
 */
import { createHash } from "node:crypto"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { BreachCheckUnavailable, pwnedPasswords } from "../../src/password/breach.js"

const breached = new Map([
  ["password", 10_434_004],
  ["correct horse battery staple", 384],
])

function sha1(text: string): string {
  return createHash("sha1").update(text, "utf8").digest("hex").toUpperCase()
}

/** Every request the server got. */
const seen: { url: string; headers: IncomingHttpHeaders }[] = []
/** How the server answers the next requests: the protocol, an error status, or never. */
let mode: "ok" | "error" | "hang" = "ok"

let server: Server
let baseUrl = ""

/** The answer for `prefix`: its breached suffixes, other real-looking ones, and (padded) zero-count lines. */
function rangeBody(prefix: string, padded: boolean): string {
  const lines: string[] = []
  for (const [password, count] of breached) {
    const digest = sha1(password)
    if (digest.startsWith(prefix)) lines.push(`${digest.slice(5)}:${count}`)
  }
  lines.push("0018A45C4D1DEF81644B54AB7F969B88D65:1", "00D4F6E8FA6EECAD2A3AA415EEC418D38EC:2")
  if (padded) {
    // A padding line for the suffix of a password that is not breached: count 0 means "no match".
    lines.push(`${sha1("not breached, only padded").slice(5)}:0`, "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF:0")
  }
  return lines.join("\r\n")
}

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? "", headers: req.headers })
    if (mode === "hang") return
    if (mode === "error") {
      res.writeHead(503).end("unavailable")
      return
    }
    const match = /^\/range\/([0-9A-F]{5})$/.exec(req.url ?? "")
    if (!match) {
      res.writeHead(400).end("The hash prefix was not in a valid format")
      return
    }
    res.writeHead(200, { "content-type": "text/plain" }).end(rangeBody(match[1]!, req.headers["add-padding"] === "true"))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

function recording() {
  const errors: Error[] = []
  return { errors, logger: { error: (error: Error) => void errors.push(error) } }
}

describe("pwnedPasswords()", () => {
  it("finds breached passwords, sending only the first 5 hex digits of their SHA-1 and asking for padding", async () => {
    mode = "ok"
    seen.length = 0
    const check = pwnedPasswords({ baseUrl })
    const { errors, logger } = recording()
    expect(await check("password", { logger })).toBe(true)
    expect(await check("correct horse battery staple", { logger })).toBe(true)
    expect(await check("a long and unusual passphrase 9421", { logger })).toBe(false)
    expect(seen.map(({ url }) => url)).toEqual([`/range/${sha1("password").slice(0, 5)}`, `/range/${sha1("correct horse battery staple").slice(0, 5)}`, `/range/${sha1("a long and unusual passphrase 9421").slice(0, 5)}`])
    expect(seen.every(({ headers }) => headers["add-padding"] === "true")).toBe(true)
    expect(errors).toEqual([])
  })

  it("does not count a padding line (count 0) as a match, even for the password's own suffix", async () => {
    mode = "ok"
    expect(await pwnedPasswords({ baseUrl })("not breached, only padded")).toBe(false)
  })

  it("compares suffixes without regard to case", async () => {
    const lowerCase: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      return new Response((await response.text()).toLowerCase(), { status: response.status })
    }
    mode = "ok"
    expect(await pwnedPasswords({ baseUrl, fetch: lowerCase })("password")).toBe(true)
  })

  it("uses the fetch and base URL it is given (a trailing slash is fine)", async () => {
    mode = "ok"
    const urls: string[] = []
    const counting: typeof fetch = (input, init) => {
      urls.push(String(input))
      return fetch(input, init)
    }
    expect(await pwnedPasswords({ baseUrl: `${baseUrl}/`, fetch: counting })("password")).toBe(true)
    expect(urls).toEqual([`${baseUrl}/range/5BAA6`])
  })

  it("fails open when the service answers with an error: logs why, names no password, and says not breached", async () => {
    mode = "error"
    const { errors, logger } = recording()
    expect(await pwnedPasswords({ baseUrl })("password", { logger })).toBe(false)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toBeInstanceOf(BreachCheckUnavailable)
    expect(errors[0]!.message).toBe(`The breached-password check at ${baseUrl} failed; the password was accepted without it`)
    expect((errors[0]!.cause as Error).message).toBe("HTTP 503")
    expect(JSON.stringify(errors[0], Object.getOwnPropertyNames(errors[0]))).not.toMatch(/password"|5BAA6/i)
  })

  it("fails open when the service does not answer within the timeout", async () => {
    mode = "hang"
    const { errors, logger } = recording()
    expect(await pwnedPasswords({ baseUrl, timeout: 200 })("password", { logger })).toBe(false)
    expect(errors).toHaveLength(1)
    expect((errors[0]!.cause as Error).name).toBe("TimeoutError")
  })

  it("fails open when nothing listens, and without a logger prints through the built-in one", async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const printed = vi.spyOn(console, "error").mockImplementation(() => {})
    try {
      expect(await pwnedPasswords({ baseUrl: `http://127.0.0.1:${port}` })("password")).toBe(false)
      expect(printed).toHaveBeenCalledOnce()
      expect(String(printed.mock.calls[0]![0])).toMatch(/^\[sesame\]\[error\] BreachCheckUnavailable: The breached-password check at http:\/\/127\.0\.0\.1:\d+ failed/)
    } finally {
      printed.mockRestore()
    }
  })

  it("refuses a base URL that is not absolute and a timeout that is not positive", () => {
    expect(() => pwnedPasswords({ baseUrl: "api.pwnedpasswords.com" })).toThrow(TypeError)
    expect(() => pwnedPasswords({ timeout: 0 })).toThrow(/"timeout" must be a positive number/)
  })
})
