/**
 * The example app that `npm start` runs, as a real server on loopback, driven over HTTP.
 * Needs the packages built (`npm test` builds first).
 */
import { spawn, type ChildProcess } from "node:child_process"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const port = 3000 + Math.floor(Math.random() * 2000) + 20000
const base = `http://localhost:${port}`
let server: ChildProcess

beforeAll(async () => {
  server = spawn(process.execPath, [join(import.meta.dirname, "..", "server.mjs")], {
    env: { ...process.env, PORT: String(port), AUTH_SECRET: "example-test-secret-0123456789abcdef" },
    stdio: ["ignore", "pipe", "inherit"],
  })
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("running at")) resolve()
    })
    server.on("exit", (code) => reject(new Error(`example server exited with ${code}`)))
  })
})

afterAll(() => {
  server?.kill()
})

class Jar {
  cookies = new Map<string, string>()
  apply(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";")
      const [name, value] = [pair!.slice(0, pair!.indexOf("=")), pair!.slice(pair!.indexOf("=") + 1)]
      if (/Max-Age=0/.test(c)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }
  get header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
  }
}

async function get(path: string, jar: Jar, init: RequestInit = {}) {
  const res = await fetch(`${base}${path}`, { redirect: "manual", ...init, headers: { cookie: jar.header, ...init.headers } })
  jar.apply(res)
  return res
}

describe("examples/basic", () => {
  it("signs the demo user in, shows the session and the protected page, and signs out", async () => {
    const jar = new Jar()
    expect(await (await get("/", jar)).text()).toContain("You are not signed in.")
    const protectedSignedOut = await get("/protected", jar)
    expect(protectedSignedOut.status).toBe(302)
    expect(protectedSignedOut.headers.get("location")).toContain("/auth/signin?callbackUrl=")

    const { csrfToken } = await (await get("/auth/csrf", jar)).json()
    const wrong = await get("/auth/callback/credentials", jar, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, email: "demo@example.com", password: "wrong" }).toString(),
    })
    expect(wrong.headers.get("location")).toContain("error=CredentialsSignin")

    const signIn = await get("/auth/callback/credentials", jar, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, email: "demo@example.com", password: "sesame-demo", callbackUrl: "/protected" }).toString(),
    })
    expect(signIn.headers.get("location")).toBe(`${base}/protected`)
    expect(await (await get("/protected", jar)).text()).toContain("Only signed-in users see this, Demo User.")
    expect(await (await get("/", jar)).text()).toContain("Signed in as <strong>Demo User</strong>")

    await get("/auth/signout", jar, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken }).toString(),
    })
    expect(await (await get("/", jar)).text()).toContain("You are not signed in.")
  })
})
