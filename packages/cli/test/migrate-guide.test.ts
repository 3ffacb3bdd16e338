/**
 * docs/migrate/from-authjs.md, block by block. Every fenced block of the guide has a marker naming
 * this file, and each is exercised here:
 *
 * - `check`: run with `sh` (as the guide writes it, `npx sesame …`) on a PostgreSQL schema holding
 *   `@auth/pg-adapter`'s tables, filled as Auth.js fills them; its output is `check-output`, but
 *   for the server's name.
 * - `packages`: what it installs are Sesame's packages, what it removes is what the guide's import
 *   table replaces, and every import of the guide's code is installed by it (npm itself is not run:
 *   the packages are not on the registry yet).
 * - `auth-kept`: loaded over an Auth.js database read through `@auth/pg-adapter`; `sesame-tables`
 *   and `copy` run on another such database, then `auth-sesame` is loaded over the copied rows.
 *   Through each `auth.ts`'s handlers: the providers' ids and callback URL; Auth.js's users
 *   signing in by email link as the same users, Auth.js's OAuth user keeping the GitHub account;
 *   and, with `migrateFrom: "authjs"`, a database session and an email link of Auth.js's still
 *   working.
 */
import { execFile } from "node:child_process"
import { createHash } from "node:crypto"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { NextRequest } from "next/server.js"
import type pg from "pg"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { startMailbox, type Mailbox } from "@sesame/dev-mailbox"
import type { SesameResult } from "@sesame/next"
import { testSchema, type TestSchema } from "../../adapter-pg/test/database.js"
import { block, commandLines, guideBlocks, type GuideBlock } from "../../../examples/newcomer/test/guide.js"
import { dataset, fillPg, uuid } from "./authjs-database.js"
import { root, type Run } from "./run.js"

const guidePath = join(root, "docs", "migrate", "from-authjs.md")
const guide = readFileSync(guidePath, "utf8")
const blocks = guideBlocks(guidePath)
const scratch = join(import.meta.dirname, ".scratch", "migrate-guide")

const appOrigin = "http://localhost:3000"
const secret = "migrate-guide-secret-0123456789-abcdefghij"
const schemas = { check: testSchema("guide_check"), kept: testSchema("guide_kept"), copied: testSchema("guide_copied") }
let mailbox: Mailbox

beforeAll(async () => {
  await Promise.all(Object.values(schemas).map((s) => s.create()))
  mailbox = await startMailbox()
  mkdirSync(scratch, { recursive: true })
  // What the app's environment holds after step 4 of the guide.
  vi.stubEnv("AUTH_SECRET", secret)
  vi.stubEnv("AUTH_URL", appOrigin)
  vi.stubEnv("AUTH_GITHUB_ID", "github-client-id")
  vi.stubEnv("AUTH_GITHUB_SECRET", "github-client-secret")
  vi.stubEnv("EMAIL_SERVER", mailbox.url)
  vi.stubEnv("EMAIL_FROM", "My App <no-reply@example.com>")
})
afterAll(async () => {
  vi.unstubAllEnvs()
  await mailbox?.close()
  await Promise.all(Object.values(schemas).map((s) => s.drop()))
})

/** A command line of the guide, run by `sh` in the repository (where `npx sesame` is Sesame's) with `env` added. */
function shell(line: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile("sh", ["-c", line], { cwd: root, env: { ...process.env, ...env, NO_COLOR: "1" }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr })
    })
  })
}

/** Writes a TypeScript block to the scratch folder and imports it. */
async function load(code: GuideBlock, databaseUrl: string): Promise<SesameResult> {
  vi.stubEnv("DATABASE_URL", databaseUrl)
  const file = join(scratch, `${code.name}.ts`)
  writeFileSync(file, code.code)
  return (await import(file)) as SesameResult
}

/** A browser on the app: its cookies, and requests through the `auth.ts` handlers. */
class Browser {
  readonly cookies = new Map<string, string>()
  constructor(readonly handlers: SesameResult["handlers"]) {}

  async fetch(path: string, form?: Record<string, string>): Promise<Response> {
    const headers = new Headers({ cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") })
    let body: string | undefined
    if (form) {
      headers.set("content-type", "application/x-www-form-urlencoded")
      headers.set("origin", appOrigin)
      headers.set("sec-fetch-site", "same-origin")
      body = new URLSearchParams(form).toString()
    }
    const url = path.startsWith("http") ? path : `${appOrigin}${path}`
    const request = new NextRequest(url, { method: form ? "POST" : "GET", headers, body })
    const response = await (form ? this.handlers.POST(request) : this.handlers.GET(request))
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";")
      const name = pair!.slice(0, pair!.indexOf("=")).trim()
      const value = pair!.slice(pair!.indexOf("=") + 1).trim()
      if (attributes.some((a) => /^\s*max-age=0$/i.test(a)) || value === "") this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return response
  }

  async session(): Promise<{ user?: { email?: string } } | null> {
    return (await this.fetch("/api/auth/session")).json() as Promise<{ user?: { email?: string } } | null>
  }

  /** Asks for an email link, as the sign-in page's form does. */
  async requestLink(email: string): Promise<void> {
    const { csrfToken } = (await (await this.fetch("/api/auth/csrf")).json()) as { csrfToken: string }
    const response = await this.fetch("/api/auth/signin/nodemailer", { csrfToken, email })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toContain("/api/auth/verify-request")
  }

  /** Opens a link from an email and presses the confirmation page's button. */
  async followLink(link: string): Promise<Response> {
    const page = await this.fetch(link)
    expect(page.status).toBe(200)
    const html = await page.text()
    const action = /<form action="([^"]*)" method="POST">/.exec(html)![1]!.replaceAll("&amp;", "&")
    const fields: Record<string, string> = {}
    for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[name!] = value!.replaceAll("&amp;", "&")
    return this.fetch(action, fields)
  }
}

/** The tables the switched app reads, on the pool of its database. */
interface Store {
  pool: pg.Pool
  users: string
  accounts: string
  sessions: string
}

const userRow = async (store: Store, email: string) =>
  (await store.pool.query<{ id: unknown; emailVerified: Date | null }>(`SELECT id, "emailVerified" FROM ${store.users} WHERE email = $1`, [email])).rows[0]
const userCount = async (store: Store) => (await store.pool.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM ${store.users}`)).rows[0]!.n
const providersOf = async (store: Store, id: unknown) =>
  (await store.pool.query<{ provider: string }>(`SELECT provider FROM ${store.accounts} WHERE "userId"::text = $1 ORDER BY 1`, [String(id)])).rows.map((r) => r.provider)

/** A link Auth.js sent before the switch: its token, and the row Auth.js stored (sha256 of the token and the secret). */
async function authjsEmailLink(store: Store, table: string, email: string): Promise<string> {
  const token = "f".repeat(32) + "0".repeat(32)
  const hashed = createHash("sha256").update(`${token}${secret}`).digest("hex")
  await store.pool.query(`INSERT INTO ${table} (identifier, token, expires) VALUES ($1, $2, now() + interval '20 hours')`, [email, hashed])
  const url = new URL(`${appOrigin}/api/auth/callback/nodemailer`)
  url.searchParams.set("callbackUrl", `${appOrigin}/`)
  url.searchParams.set("token", token)
  url.searchParams.set("email", email)
  return url.href
}

/** What every switched app must show, with either adapter: the same providers, the same users. */
async function sameUsers(result: SesameResult, store: Store) {
  const browser = new Browser(result.handlers)
  const providers = (await (await browser.fetch("/api/auth/providers")).json()) as Record<string, { callbackUrl: string }>
  expect(Object.keys(providers)).toEqual(["github", "nodemailer"])
  // The callback URL registered at GitHub under Auth.js is still the one sent.
  expect(providers.github!.callbackUrl).toBe(`${appOrigin}/api/auth/callback/github`)
  const { csrfToken } = (await (await browser.fetch("/api/auth/csrf")).json()) as { csrfToken: string }
  const authorize = new URL((await browser.fetch("/api/auth/signin/github", { csrfToken })).headers.get("location")!)
  expect(authorize.origin + authorize.pathname).toBe("https://github.com/login/oauth/authorize")
  expect(authorize.searchParams.get("client_id")).toBe("github-client-id")
  expect(authorize.searchParams.get("redirect_uri")).toBe(`${appOrigin}/api/auth/callback/github`)

  const users = await userCount(store)
  // Ada came by email links under Auth.js: a new link signs her into her own user.
  const ada = new Browser(result.handlers)
  await ada.requestLink("ada@example.com")
  const adaLink = /http:\/\/localhost:3000\/api\/auth\/callback\/nodemailer\?\S+/.exec((await mailbox.waitFor("ada@example.com")).text)![0]
  expect((await ada.followLink(adaLink)).status).toBe(302)
  expect(await ada.session()).toMatchObject({ user: { email: "ada@example.com" } })
  const adaId = (await userRow(store, "ada@example.com"))!.id
  expect(String(adaId)).toBe("1")
  expect((await store.pool.query(`SELECT 1 FROM ${store.sessions} WHERE "userId"::text = '1'`)).rowCount).toBeGreaterThan(0)

  // Bob came through GitHub, so Auth.js left his address unverified: an email link signs him in
  // as himself, marks the address verified, and keeps the GitHub account.
  const bob = new Browser(result.handlers)
  await bob.requestLink("bob@example.com")
  const bobLink = /http:\/\/localhost:3000\/api\/auth\/callback\/nodemailer\?\S+/.exec((await mailbox.waitFor("bob@example.com")).text)![0]
  expect((await bob.followLink(bobLink)).status).toBe(302)
  expect(await bob.session()).toMatchObject({ user: { email: "bob@example.com" } })
  const bobRow = (await userRow(store, "bob@example.com"))!
  expect(String(bobRow.id)).toBe("2")
  expect(bobRow.emailVerified).not.toBeNull()
  expect(await providersOf(store, 2)).toEqual(["github"])
  expect(await userCount(store)).toBe(users)
}

/** With `migrateFrom: "authjs"`: Cy's Auth.js session is still signed in, and Eve's link from Auth.js works. */
async function authjsCarriesOver(result: SesameResult, store: Store, verificationTokens: string) {
  const cy = new Browser(result.handlers)
  cy.cookies.set("authjs.session-token", uuid(3))
  expect(await cy.session()).toMatchObject({ user: { email: "cy@example.com" } })
  // Re-keyed: the row holds the token's hash now, never the token.
  const rows = (await store.pool.query<{ sessionToken: string }>(`SELECT "sessionToken" FROM ${store.sessions} WHERE "userId"::text = '3'`)).rows
  expect(rows.map((r) => r.sessionToken)).not.toContain(uuid(3))
  expect(await cy.session()).toMatchObject({ user: { email: "cy@example.com" } })

  const eve = new Browser(result.handlers)
  const link = await authjsEmailLink(store, verificationTokens, "eve@example.com")
  expect((await eve.followLink(link)).status).toBe(302)
  expect(await eve.session()).toMatchObject({ user: { email: "eve@example.com" } })
  expect(String((await userRow(store, "eve@example.com"))!.id)).toBe("5")
}

describe("docs/migrate/from-authjs.md", () => {
  it("has the blocks this test exercises, each with its marker", () => {
    expect(blocks.map((b) => `${b.name}:${b.lang}`)).toEqual([
      "check:sh",
      "check-output:text",
      "packages:sh",
      "auth-kept:ts",
      "sesame-tables:sh",
      "copy:sql",
      "auth-sesame:ts",
    ])
  })

  it("check: the command prints the guide's output, and exits 0", async () => {
    const pool = schemas.check.pool()
    await fillPg(pool, dataset)
    const lines = commandLines(block(blocks, "check"))
    expect(lines).toHaveLength(1)
    const result = await shell(lines[0]!, { DATABASE_URL: schemas.check.url })
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    expect(result.stdout.replace(" at 127.0.0.1:5432/test;", " at db.example.com:5432/app;")).toBe(block(blocks, "check-output").code)
  })

  it("packages: installs Sesame's packages, removes what the import table replaces, and covers every import of the guide", () => {
    const lines = [...commandLines(block(blocks, "packages")), ...commandLines(block(blocks, "sesame-tables")).filter((l) => l.startsWith("npm "))]
    const installed = new Set<string>()
    const removed: string[] = []
    for (const line of lines) {
      const [npm, verb, ...args] = line.split(" ")
      expect(npm).toBe("npm")
      const names = args.filter((a) => !a.startsWith("-"))
      if (verb === "uninstall") removed.push(...names)
      else if (verb === "install") for (const name of names) installed.add(name)
      else throw new Error(`unexpected npm line in the guide: ${line}`)
    }
    const table = guide.slice(guide.indexOf("| Auth.js | Sesame |"), guide.indexOf("A provider that Auth.js has"))
    for (const name of removed) expect(table).toContain(`\`${name}`)
    // Each package installed is one of Sesame's, published (not private).
    const manifests = new Map<string, { exports: Record<string, unknown>; private?: boolean }>()
    for (const name of installed) {
      expect(name).toMatch(/^@sesame\//)
      const manifest = JSON.parse(readFileSync(join(root, "packages", name.slice("@sesame/".length), "package.json"), "utf8")) as {
        name: string
        private?: boolean
        exports: Record<string, unknown>
      }
      expect(manifest.name).toBe(name)
      expect(manifest.private).not.toBe(true)
      manifests.set(name, manifest)
    }
    expect([...installed].sort()).toEqual(["@sesame/adapter-pg", "@sesame/cli", "@sesame/core", "@sesame/next"])
    // Every import of the guide's code: a subpath one of these packages exports, the adapter kept, or the driver.
    for (const code of blocks.filter((b) => b.lang === "ts")) {
      for (const [, specifier] of code.code.matchAll(/from "([^"]+)"/g)) {
        if (specifier === "pg" || specifier === "@auth/pg-adapter") continue
        const [scope, name, ...rest] = specifier!.split("/")
        const manifest = manifests.get(`${scope}/${name}`)
        expect(manifest, specifier).toBeDefined()
        const subpath = rest.length ? `./${rest.join("/")}` : "."
        const exported = Object.keys(manifest!.exports).some((key) => key === subpath || (key.endsWith("/*") && subpath.startsWith(key.slice(0, -1))))
        expect(exported, specifier).toBe(true)
      }
    }
    // The CLI the check block runs is the one installed.
    expect(commandLines(block(blocks, "check"))[0]).toMatch(/^npx sesame /)
  })

  describe("auth-kept: Auth.js's adapter, @auth/pg-adapter, kept", () => {
    let result: SesameResult
    let store: Store
    beforeAll(async () => {
      const pool = schemas.kept.pool()
      await fillPg(pool, dataset)
      store = { pool, users: "users", accounts: "accounts", sessions: "sessions" }
    })

    it("loads (it needs @auth/pg-adapter installed)", async () => {
      result = await load(block(blocks, "auth-kept"), schemas.kept.url)
      expect(typeof result.handlers.GET).toBe("function")
    })

    it("the same providers and callback URL; Auth.js's users sign in by email link as themselves, the OAuth user keeping the account", async () => {
      await sameUsers(result, store)
    })

    it('with migrateFrom: "authjs", a database session and an email link of Auth.js still work', async () => {
      await authjsCarriesOver(result, store, "verification_token")
    })
  })

  describe("sesame-tables, copy, auth-sesame: Sesame's adapter, the rows copied", () => {
    let result: SesameResult
    let store: Store
    beforeAll(async () => {
      const pool = schemas.copied.pool()
      await fillPg(pool, dataset)
      store = { pool, users: "sesame_users", accounts: "sesame_accounts", sessions: "sesame_sessions" }
    })

    it("sesame migrate creates Sesame's tables beside Auth.js's, and the copy brings the users, accounts, sessions and links", async () => {
      const lines = commandLines(block(blocks, "sesame-tables")).filter((l) => !l.startsWith("npm "))
      expect(lines).toHaveLength(1)
      const migrated = await shell(lines[0]!, { DATABASE_URL: schemas.copied.url })
      expect(migrated.stderr).toBe("")
      expect(migrated.code).toBe(0)
      expect(migrated.stdout).toContain("Applied migration 1")
      await store.pool.query(block(blocks, "copy").code)
      const count = async (table: string) => (await store.pool.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM "${table}"`)).rows[0]!.n
      // Every user but the one without an address; every account; the live sessions but Auth.js v4's; the live links.
      expect(await count("sesame_users")).toBe(6)
      expect(await count("sesame_accounts")).toBe(5)
      expect(await count("sesame_sessions")).toBe(4)
      expect(await count("sesame_verificationTokens")).toBe(2)
    })

    it("loads", async () => {
      result = await load(block(blocks, "auth-sesame"), schemas.copied.url)
      expect(typeof result.handlers.GET).toBe("function")
    })

    it("the same providers and callback URL; Auth.js's users sign in by email link as themselves, the OAuth user keeping the account", async () => {
      await sameUsers(result, store)
    })

    it('with migrateFrom: "authjs", a database session and an email link of Auth.js still work', async () => {
      await authjsCarriesOver(result, store, `"sesame_verificationTokens"`)
    })
  })
})
