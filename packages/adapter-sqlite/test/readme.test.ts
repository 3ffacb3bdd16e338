import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it, vi } from "vitest"

const scratch = join(import.meta.dirname, ".scratch")

afterAll(() => {
  vi.unstubAllEnvs()
})

describe("README example", () => {
  it("runs as written against a SQLite file", async () => {
    vi.stubEnv("AUTH_SECRET", "sqlite-readme-secret-0123456789abcdef")
    vi.stubEnv("DATABASE_FILE", join(mkdtempSync(join(tmpdir(), "sesame-readme-")), "auth.db"))
    const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8")
    const code = /<!-- example: sqlite[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)![1]!
    mkdirSync(scratch, { recursive: true })
    writeFileSync(join(scratch, "sqlite.ts"), code)
    const app = (await import(join(scratch, "sqlite.ts"))).default as { fetch: (r: Request) => Promise<Response> }
    const csrf = await app.fetch(new Request("http://localhost:3000/auth/csrf"))
    const cookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!
    const { csrfToken } = await csrf.json()
    const signIn = await app.fetch(
      new Request("http://localhost:3000/auth/callback/credentials", {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, email: "ada@example.com", password: "open sesame" }).toString(),
      }),
    )
    const session = signIn.headers.getSetCookie().find((c) => c.startsWith("sesame.session-token="))!.split(";")[0]!
    const body = await (await app.fetch(new Request("http://localhost:3000/auth/session", { headers: { cookie: session } }))).json()
    expect(body.user.email).toBe("ada@example.com")
  })
})
