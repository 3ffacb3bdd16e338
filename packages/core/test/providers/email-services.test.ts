/**
 * The email delivery services, against a local HTTP server standing in for each API: the request
 * Sesame makes (method, path, authentication, body shape), and what a refusal becomes: an error
 * that names the service and the status, and holds neither the API key nor the sign-in link.
 */
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import type { AuthConfig, EmailConfig, SendVerificationRequestParams } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Mailgun from "@sesame/core/providers/mailgun"
import Postmark from "@sesame/core/providers/postmark"
import Resend from "@sesame/core/providers/resend"
import SendGrid from "@sesame/core/providers/sendgrid"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CookieJar, csrfToken, send as authSend } from "../helpers.js"
import { defaultTheme } from "../../src/config/defaults.js"
import { verificationEmail } from "../../src/email/message.js"
import { EmailDeliveryError } from "../../src/providers/lib/email.js"
import { translator } from "../../src/pages/i18n.js"
import { resolveMessages } from "../../src/config/appearance.js"

interface Received {
  method: string
  path: string
  headers: IncomingMessage["headers"]
  body: string
}

const apiKey = "key-0123456789-very-secret"
const link = "https://app.example/auth/callback/mail?token=a-secret-token-0123456789&email=ada%40example.com"
let status = 200
const received: Received[] = []
let base: string
const server = createServer((req, res) => {
  let body = ""
  req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
  req.on("end", () => {
    received.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body })
    // Services echo what they were sent in their errors; the error Sesame throws must not.
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ message: `bad request for ${body}` }))
  })
})

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** The built-in mail, as the email flow hands it to every sender. */
const message = verificationEmail({ url: link, host: "app.example", theme: { ...defaultTheme, brandColor: "#0f766e" } }, translator("en", resolveMessages(undefined)))

function params(provider: EmailConfig): SendVerificationRequestParams {
  return {
    identifier: "ada@example.com",
    url: link,
    expires: new Date(Date.now() + 3600_000),
    // As the configuration hands it over: with the API key from AUTH_<ID>_KEY applied.
    provider: { ...provider, apiKey },
    token: "a-secret-token-0123456789",
    theme: { brandColor: "#0f766e" },
    request: new Request("https://app.example/auth/signin/mail", { method: "POST" }),
    message,
  }
}

async function send(provider: EmailConfig): Promise<Received> {
  received.length = 0
  status = 200
  await provider.sendVerificationRequest(params(provider))
  expect(received).toHaveLength(1)
  return received[0]!
}

const from = "Acme <sign-in@acme.example>"

const services: [string, (baseUrl: string) => EmailConfig, (r: Received) => void][] = [
  [
    "resend",
    (baseUrl) => Resend({ from, baseUrl }),
    (r) => {
      expect(r.method).toBe("POST")
      expect(r.path).toBe("/emails")
      expect(r.headers.authorization).toBe(`Bearer ${apiKey}`)
      expect(r.headers["content-type"]).toBe("application/json")
      expect(JSON.parse(r.body)).toEqual({ from, to: ["ada@example.com"], subject: message.subject, html: message.html, text: message.text })
    },
  ],
  [
    "sendgrid",
    (baseUrl) => SendGrid({ from, baseUrl }),
    (r) => {
      expect(r.method).toBe("POST")
      expect(r.path).toBe("/v3/mail/send")
      expect(r.headers.authorization).toBe(`Bearer ${apiKey}`)
      expect(JSON.parse(r.body)).toEqual({
        personalizations: [{ to: [{ email: "ada@example.com" }] }],
        from: { email: "sign-in@acme.example", name: "Acme" },
        subject: message.subject,
        content: [
          { type: "text/plain", value: message.text },
          { type: "text/html", value: message.html },
        ],
      })
    },
  ],
  [
    "postmark",
    (baseUrl) => Postmark({ from, baseUrl }),
    (r) => {
      expect(r.method).toBe("POST")
      expect(r.path).toBe("/email")
      expect(r.headers["x-postmark-server-token"]).toBe(apiKey)
      expect(r.headers.authorization).toBeUndefined()
      expect(JSON.parse(r.body)).toEqual({
        From: from,
        To: "ada@example.com",
        Subject: message.subject,
        HtmlBody: message.html,
        TextBody: message.text,
        MessageStream: "outbound",
      })
    },
  ],
  [
    "mailgun",
    (baseUrl) => Mailgun({ from, baseUrl }),
    (r) => {
      expect(r.method).toBe("POST")
      expect(r.path).toBe("/v3/acme.example/messages")
      expect(r.headers.authorization).toBe(`Basic ${Buffer.from(`api:${apiKey}`).toString("base64")}`)
      expect(r.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/)
      expect(Object.fromEntries(new URLSearchParams(r.body))).toEqual({ from, to: "ada@example.com", subject: message.subject, text: message.text, html: message.html })
    },
  ],
]

describe.each(services)("%s", (_id, make, check) => {
  // The base URL is only known once the server listens.
  const provider = () => make(base)

  it("sends the documented request", async () => {
    check(await send(provider()))
  })

  it.each([400, 401, 422, 500])("rejects on HTTP %i with an error naming the service and the status, without the key or the link", async (code) => {
    received.length = 0
    status = code
    const sent = provider()
    const error = await Promise.resolve(sent.sendVerificationRequest(params(sent))).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(EmailDeliveryError)
    const text = `${(error as Error).message} ${JSON.stringify(error)} ${String((error as Error).stack)}`
    expect((error as EmailDeliveryError).status).toBe(code)
    expect((error as Error).message).toContain(String(code))
    expect(text).not.toContain(apiKey)
    expect(text).not.toContain("a-secret-token")
    expect(text).not.toContain("ada@example.com")
  })

  it("refuses to send without an API key or a from address", async () => {
    const p = provider()
    await expect(p.sendVerificationRequest({ ...params(p), provider: { ...p, apiKey: undefined } })).rejects.toThrow(/API key.*AUTH_<ID>_KEY/)
    await expect(p.sendVerificationRequest({ ...params(p), provider: { ...p, apiKey, from: undefined } })).rejects.toThrow(/`from`/)
  })
})

describe("service details", () => {
  it("Mailgun: an explicit domain, and the EU region", async () => {
    const r = await send(Mailgun({ from, domain: "mg.acme.example", baseUrl: base }))
    expect(r.path).toBe("/v3/mg.acme.example/messages")
    expect(Mailgun({ region: "eu" }).sendVerificationRequest).toBeTypeOf("function")
  })

  it("Postmark: another message stream", async () => {
    const r = await send(Postmark({ from, messageStream: "sign-in", baseUrl: base }))
    expect(JSON.parse(r.body).MessageStream).toBe("sign-in")
  })

  it("an unreachable service is an EmailDeliveryError too", async () => {
    const p = Resend({ from, baseUrl: "http://127.0.0.1:9" })
    await expect(p.sendVerificationRequest(params(p))).rejects.toThrow(/Resend could not be reached/)
  })
})

describe("through Auth()", () => {
  it("a service's error answer becomes EmailSignin on the sign-in page, with no token left behind", async () => {
    const adapter = MemoryAdapter()
    const config: AuthConfig = {
      secret: "email-services-secret-0123456789abcdef",
      trustHost: true,
      adapter,
      logger: { error: () => {} },
      providers: [Resend({ from, apiKey, baseUrl: base })],
    }
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const sendLink = () => authSend(config, "/auth/signin/resend", { jar, form: { csrfToken: token, email: "ada@example.com" } })

    received.length = 0
    status = 200
    const sent = await sendLink()
    expect(new URL(sent.headers.get("location")!).pathname).toBe("/auth/verify-request")
    expect(received).toHaveLength(1)
    expect(adapter.tables.verificationTokens.size).toBe(1)
    adapter.tables.verificationTokens.clear()

    status = 503
    const refused = await sendLink()
    const location = new URL(refused.headers.get("location")!)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("EmailSignin")
    expect(adapter.tables.verificationTokens.size).toBe(0)
  })
})
