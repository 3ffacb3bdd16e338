import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type pg from "pg"
import { afterAll, describe, expect, it, vi } from "vitest"
import { testSchema } from "./database.js"

const db = testSchema("readme")
let pool: pg.Pool | undefined

afterAll(async () => {
  vi.unstubAllEnvs()
  await pool?.end()
  await db.drop()
})

describe("README example", () => {
  it("runs as written against PostgreSQL", async () => {
    await db.create()
    vi.stubEnv("AUTH_SECRET", "pg-readme-secret-0123456789abcdef")
    vi.stubEnv("DATABASE_URL", db.url)
    const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8")
    const code = /<!-- example: pg[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)![1]!
    const scratch = join(import.meta.dirname, ".scratch")
    mkdirSync(scratch, { recursive: true })
    writeFileSync(join(scratch, "pg.ts"), code)
    const example = (await import(join(scratch, "pg.ts"))) as { default: { fetch: (r: Request) => Promise<Response> }; pool: pg.Pool }
    pool = example.pool
    const app = example.default
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
    const { rows } = await pool.query(`SELECT COUNT(*)::int AS n FROM "sesame_sessions"`)
    expect(rows).toEqual([{ n: 1 }])
  })
})
