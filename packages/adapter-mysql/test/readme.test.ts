import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type mysql from "mysql2/promise"
import { afterAll, describe, expect, it, vi } from "vitest"
import { testDatabase } from "./database.js"

const db = testDatabase("readme")
let pool: mysql.Pool | undefined

afterAll(async () => {
  vi.unstubAllEnvs()
  await pool?.end()
  await db.drop()
})

describe("README example", () => {
  it("runs as written against MariaDB", async () => {
    await db.create()
    vi.stubEnv("AUTH_SECRET", "mysql-readme-secret-0123456789abcdef")
    vi.stubEnv("DATABASE_URL", db.url)
    const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8")
    const code = /<!-- example: mysql[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)![1]!
    const scratch = join(import.meta.dirname, ".scratch")
    mkdirSync(scratch, { recursive: true })
    writeFileSync(join(scratch, "mysql.ts"), code)
    const example = (await import(join(scratch, "mysql.ts"))) as { default: { fetch: (r: Request) => Promise<Response> }; pool: mysql.Pool }
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
    const [rows] = await pool.query<mysql.RowDataPacket[]>("SELECT COUNT(*) AS n FROM `sesame_sessions`")
    expect(rows).toEqual([{ n: 1 }])
  })
})
