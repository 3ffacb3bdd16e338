/**
 * What is particular to the Node.js handler (`toNodeHandler` from `@sesame/core/node`); the
 * endpoints themselves are tested through it by the `node-handler` project, which runs the
 * endpoint tests again with `send()` going through this handler.
 */
import { once } from "node:events"
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { connect as http2Connect, createServer as createHttp2Server } from "node:http2"
import { connect, type AddressInfo } from "node:net"
import type { AuthConfig } from "@sesame/core"
import { encode } from "@sesame/core/jwt"
import { toNodeHandler, type NodeRequest } from "@sesame/core/node"
import { afterEach, describe, expect, it } from "vitest"
import { jwtConfig, secret, users } from "./helpers.js"

const cookie = "sesame.session-token"
const servers: Server[] = []

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

async function serve(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
  const server = createServer(listener)
  servers.push(server)
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  return (server.address() as AddressInfo).port
}

interface Answer {
  status: number
  headers: IncomingMessage["headers"]
  body: string
}

function call(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method: options.method ?? "GET", headers: { host: "localhost:3000", ...options.headers } }, (res) => {
      let body = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (body += chunk))
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }))
    })
    req.on("error", reject)
    req.end(options.body)
  })
}

/** Sends `text` as it is (a request no HTTP client would write) and returns everything answered. */
async function rawExchange(port: number, text: string): Promise<string> {
  const socket = connect(port, "127.0.0.1")
  await once(socket, "connect")
  socket.end(text)
  let raw = ""
  socket.setEncoding("utf8")
  for await (const chunk of socket) raw += chunk
  return raw
}

async function sessionCookie(): Promise<string> {
  return `${cookie}=${await encode({ token: { sub: "1", name: "Alice", email: "alice@example.com" }, secret, salt: cookie })}`
}

/** Counts the web `Request`s built while `work` runs. */
async function requestsBuilt(work: () => Promise<unknown>): Promise<number> {
  const Original = globalThis.Request
  let built = 0
  globalThis.Request = class extends Original {
    constructor(...args: ConstructorParameters<typeof Request>) {
      super(...args)
      built++
    }
  }
  try {
    await work()
  } finally {
    globalThis.Request = Original
  }
  return built
}

/** A CSRF token and its cookie, from the handler on `port`. */
async function csrf(port: number): Promise<{ token: string; cookie: string }> {
  const answer = await call(port, "/auth/csrf")
  const set = (answer.headers["set-cookie"] ?? []).map((line) => line.split(";")[0]!)
  return { token: (JSON.parse(answer.body) as { csrfToken: string }).csrfToken, cookie: set.join("; ") }
}

describe("toNodeHandler", () => {
  it("answers a session check without building a web Request; a credentials sign-in hands authorize one", async () => {
    let seen: Request | undefined
    const config = jwtConfig()
    const port = await serve(toNodeHandler(config))
    const session = await sessionCookie()
    let answer: Answer | undefined
    expect(await requestsBuilt(async () => (answer = await call(port, "/auth/session", { headers: { cookie: session } })))).toBe(0)
    expect(answer!.status).toBe(200)
    expect(JSON.parse(answer!.body).user.email).toBe("alice@example.com")
    expect(answer!.headers["content-type"]).toBe("application/json")
    expect(answer!.headers["x-content-type-options"]).toBe("nosniff")
    expect(answer!.headers["cache-control"]).toContain("no-store")
    // Written whole, with its length, not chunked.
    expect(answer!.headers["content-length"]).toBe(String(Buffer.byteLength(answer!.body)))
    expect(answer!.headers["transfer-encoding"]).toBeUndefined()

    const { aliceCredentials } = await import("./helpers.js")
    const spying: AuthConfig = {
      ...config,
      providers: [
        aliceCredentials({
          authorize: async (credentials, request) => {
            seen = request
            return credentials.username === "alice" && credentials.password === users.alice.password ? { id: "1", name: "Alice", email: "alice@example.com" } : null
          },
        }),
      ],
    }
    const port2 = await serve(toNodeHandler(spying))
    const { token, cookie: csrfCookie } = await csrf(port2)
    const signedIn = await call(port2, "/auth/callback/credentials", {
      method: "POST",
      headers: { cookie: csrfCookie, "content-type": "application/x-www-form-urlencoded", "user-agent": "node-test" },
      body: new URLSearchParams({ csrfToken: token, username: "alice", password: users.alice.password }).toString(),
    })
    expect(signedIn.status).toBe(302)
    expect((signedIn.headers["set-cookie"] ?? []).some((line) => line.startsWith(`${cookie}=`))).toBe(true)
    expect(seen).toBeInstanceOf(Request)
    expect(seen!.headers.get("user-agent")).toBe("node-test")
    expect(seen!.url).toBe("http://localhost:3000/auth/callback/credentials")
  })

  it("as a middleware, passes requests outside the base path on to next(), reads the mounted path from originalUrl", async () => {
    const handler = toNodeHandler(jwtConfig())
    const passed: string[] = []
    const port = await serve((req, res) => {
      const mounted = req as NodeRequest
      // What Express does for app.use("/auth", …): `url` loses the mount path, `originalUrl` keeps it.
      if (req.url!.startsWith("/auth/")) {
        mounted.originalUrl = req.url
        req.url = req.url!.slice("/auth".length)
      }
      void handler(mounted, res, () => {
        passed.push(mounted.originalUrl ?? req.url!)
        res.end("the app")
      })
    })
    const providers = await call(port, "/auth/providers")
    expect(providers.status).toBe(200)
    expect(JSON.parse(providers.body)).toHaveProperty("credentials")
    const app = await call(port, "/dashboard")
    expect(app.body).toBe("the app")
    expect(passed).toEqual(["/dashboard"])
  })

  it("without next, refuses a path outside the base path as Auth() does", async () => {
    const port = await serve(toNodeHandler(jwtConfig()))
    const answer = await call(port, "/elsewhere")
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body).message).toContain("is not an authentication endpoint")
  })

  it("keeps the cookies and headers a middleware set before it", async () => {
    const handler = toNodeHandler(jwtConfig())
    const port = await serve((req, res) => {
      res.setHeader("Set-Cookie", "app-theme=dark; Path=/")
      res.setHeader("X-App", "1")
      void handler(req, res)
    })
    const answer = await call(port, "/auth/csrf")
    expect(answer.headers["x-app"]).toBe("1")
    const names = (answer.headers["set-cookie"] ?? []).map((line) => line.split("=")[0])
    expect(names.sort()).toEqual(["app-theme", "sesame.csrf-token"])
  })

  it("takes a body that a body parser read before it, with its own rules: a field sent twice is refused", async () => {
    const handler = toNodeHandler(jwtConfig())
    const port = await serve(async (req, res) => {
      // What express.urlencoded() leaves: the stream read to its end, the fields on `req.body`.
      let text = ""
      for await (const chunk of req) text += chunk
      const fields: Record<string, string | string[]> = {}
      for (const [key, value] of new URLSearchParams(text)) {
        const had = fields[key]
        fields[key] = had === undefined ? value : ([] as string[]).concat(had, value)
      }
      ;(req as NodeRequest).body = fields
      void handler(req, res)
    })
    const { token, cookie: csrfCookie } = await csrf(port)
    const form = { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie }
    const good = await call(port, "/auth/callback/credentials", {
      method: "POST",
      headers: form,
      body: new URLSearchParams({ csrfToken: token, username: "alice", password: users.alice.password }).toString(),
    })
    expect(good.status).toBe(302)
    expect(good.headers.location).toBe("http://localhost:3000/")
    const twice = await call(port, "/auth/callback/credentials", {
      method: "POST",
      headers: form,
      body: `csrfToken=${token}&username=alice&password=x&callbackUrl=%2Fa&callbackUrl=https%3A%2F%2Fevil.example`,
    })
    expect(twice.status).toBe(400)
  })

  it("refuses a body over the limit with 413, and a request without a Host with 400, neither with a stack", async () => {
    const port = await serve(toNodeHandler(jwtConfig()))
    const big = await call(port, "/auth/signout", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `a=${"x".repeat(1024 * 1024 + 10)}` })
    expect(big.status).toBe(413)
    expect(big.headers.connection).toBe("close")
    expect(big.body).not.toMatch(/at .*\.(ts|js):\d+/)
    // Chunked, so no declared length to refuse up front: counted while read.
    const chunked = await call(port, "/auth/signout", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked" },
      body: `a=${"x".repeat(1024 * 1024 + 10)}`,
    })
    expect(chunked.status).toBe(413)

    const raw = await rawExchange(port, "GET /auth/session HTTP/1.0\r\n\r\n")
    expect(raw).toMatch(/^HTTP\/1\.[01] 400 /)
    expect(raw).not.toMatch(/at .*\.(ts|js):\d+/)
  })

  it("over HTTP/2, each request's :authority gives its own origin; one client's cannot become another's", async () => {
    const server = createHttp2Server((req, res) => void toNodeHandler(jwtConfig())(req as unknown as NodeRequest, res as unknown as ServerResponse))
    servers.push(server as unknown as Server)
    server.listen(0, "127.0.0.1")
    await once(server, "listening")
    const client = http2Connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    const providers = (authority: string) =>
      new Promise<string>((resolve, reject) => {
        const stream = client.request({ ":path": "/auth/providers", ":authority": authority })
        let body = ""
        stream.setEncoding("utf8")
        stream.on("data", (chunk: string) => (body += chunk))
        stream.on("end", () => resolve(body))
        stream.on("error", reject)
      })
    try {
      // trustHost (behind a proxy): each request's host is its own, whichever came first.
      const signinUrl = async (authority: string) => JSON.parse(await providers(authority)).credentials.signinUrl
      expect(await signinUrl("evil.example")).toBe("http://evil.example/auth/signin/credentials")
      expect(await signinUrl("good.example")).toBe("http://good.example/auth/signin/credentials")
      expect(await signinUrl("evil.example")).toBe("http://evil.example/auth/signin/credentials")
    } finally {
      client.close()
    }
  })

  it("takes a target starting with // as a path, as the framework in front does, and an absolute-form target's host from Host", async () => {
    const passed: string[] = []
    let seen: string | undefined
    const handler = toNodeHandler((request) => {
      seen = request?.url
      return jwtConfig()
    })
    const port = await serve((req, res) => void handler(req, res, () => (passed.push(req.url!), res.end("the app"))))
    // A guard in front that matches `/auth/` sees `//x/auth/csrf` as another path; so does the handler.
    expect((await call(port, "//x/auth/csrf")).body).toBe("the app")
    expect(passed).toEqual(["//x/auth/csrf"])

    const raw = await rawExchange(port, "GET http://evil.example/auth/providers HTTP/1.1\r\nHost: localhost:3000\r\nConnection: close\r\n\r\n")
    expect(raw).toMatch(/^HTTP\/1\.1 200 /)
    expect(raw).toContain("http://localhost:3000/auth/signin/credentials")
    expect(raw).not.toContain("evil.example")
    expect(seen).toBe("http://localhost:3000/auth/providers")
  })

  it("refuses a body a parser read before it when it is over the limit, as Auth() would", async () => {
    const handler = toNodeHandler(jwtConfig())
    const port = await serve(async (req, res) => {
      for await (const _ of req) {
        // What a parser with a larger limit does: reads it all.
      }
      ;(req as NodeRequest).body = { csrfToken: "x", big: "y".repeat(1024 * 1024 + 10) }
      void handler(req, res)
    })
    const answer = await call(port, "/auth/signout", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })
    expect(answer.status).toBe(413)
  })

  it("a cookie it sets is never left cacheable by a middleware's Cache-Control", async () => {
    const handler = toNodeHandler(jwtConfig())
    const port = await serve((req, res) => {
      res.setHeader("Cache-Control", "public, max-age=3600")
      void handler(req, res)
    })
    const { token, cookie: csrfCookie } = await csrf(port)
    const signedIn = await call(port, "/auth/callback/credentials", {
      method: "POST",
      headers: { cookie: csrfCookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: token, username: "alice", password: users.alice.password }).toString(),
    })
    expect(signedIn.status).toBe(302)
    expect(signedIn.headers["cache-control"]).toBe("private, no-store")
  })

  it("answers HEAD without a body, and hands a lazy configuration the request", async () => {
    let host: string | null = null
    const port = await serve(
      toNodeHandler((request) => {
        host = request?.headers.get("host") ?? null
        return jwtConfig()
      }),
    )
    const head = await call(port, "/auth/session", { method: "HEAD", headers: { cookie: await sessionCookie() } })
    expect(head.status).toBe(200)
    expect(head.body).toBe("")
    expect(host).toBe("localhost:3000")
  })
})
