import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Adapter } from "@sesame/core/adapters"
import { drizzle } from "drizzle-orm/node-postgres"
import type pg from "pg"
import { afterAll, describe, expect, it, vi } from "vitest"
import { pgCreateSql } from "./create-tables.js"
import { postgresRun } from "./services.js"

const scratch = join(import.meta.dirname, ".scratch")
// Fails fast, naming the command that starts PostgreSQL, when it is not running.
const run = await postgresRun()

afterAll(async () => {
  vi.unstubAllEnvs()
  await run.drop()
})

/** Writes the README's example named `name` to a file and imports it. */
async function example<T>(name: string): Promise<T> {
  const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8")
  const code = new RegExp(`<!-- example: ${name} [\\s\\S]*?\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(readme)![1]!
  mkdirSync(scratch, { recursive: true })
  writeFileSync(join(scratch, `${name}.ts`), code)
  return (await import(join(scratch, `${name}.ts`))) as T
}

describe("README examples", () => {
  it("run as written against PostgreSQL: the extended tables, then a sign-in through the plain adapter", async () => {
    // The run's schema comes first on the search path, so the examples' unqualified tables are its.
    vi.stubEnv("DATABASE_URL", run.url)
    vi.stubEnv("AUTH_SECRET", "drizzle-readme-secret-0123456789abcdef")
    const extend = await example<{ users: object; accounts: object; adapterFor: (db: ReturnType<typeof drizzle>) => Adapter }>("extend")
    const { users, accounts, sessions, verificationTokens, authenticators, passwords, counters, twoFactors, recoveryCodes, signingKeys } = extend as unknown as Record<string, object>
    // drizzle-kit names unqualified tables' foreign keys as "public"."…"; here they live in the run's schema.
    for (const statement of await pgCreateSql({ users, accounts, sessions, verificationTokens, authenticators, passwords, counters, twoFactors, recoveryCodes, signingKeys })) {
      await run.pool.query(statement.replaceAll(`"public".`, ""))
    }

    const main = await example<{ default: { fetch: (r: Request) => Promise<Response> }; pool: pg.Pool }>("drizzle")
    try {
      const app = main.default
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
    } finally {
      await main.pool.end()
    }

    // The user the plain adapter created has the extended table's default role.
    const adapter = extend.adapterFor(drizzle(run.pool))
    expect(await adapter.getUserByEmail!("ada@example.com")).toMatchObject({ email: "ada@example.com", role: "member" })
  })
})
