/**
 * The endpoint reference (docs/reference/endpoints.md) against the dispatcher's route table
 * (`routeKeys()`: the core's rows and the built-in capabilities'): every route has exactly one row
 * in the page's table, no row names a route that does not exist, and the fields the page lists for
 * the password forms (in the table's Takes cell and in the form's own section) are exactly the
 * `name`s the built-in pages' forms post.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Auth, type AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Password from "@sesame/core/providers/password"
import { describe, expect, it } from "vitest"
import { routeKeys } from "../../src/actions/index.js"
import { secret } from "../helpers.js"

const pageName = "docs/reference/endpoints.md"
const markdown = readFileSync(join(import.meta.dirname, "..", "..", "..", "..", pageName), "utf8")
const tableHeader = "| Method | Path | Takes | Answers | Errors |"

/** The cells of a table row, `\|` kept inside its cell. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "")
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim())
}

interface Row {
  key: string
  takes: string
}

/** The endpoint table's rows, keyed `METHOD path`; rows that are neither a route nor a bold section row, as written. */
function endpointTable(): { rows: Row[]; malformed: string[] } {
  const lines = markdown.split("\n")
  const start = lines.findIndex((line) => line.trim() === tableHeader)
  const rows: Row[] = []
  const malformed: string[] = []
  // After the header, its separator row, then every row up to the first line that is not one.
  for (const line of lines.slice(start + 2)) {
    if (!line.trim().startsWith("|")) break
    const [method = "", path = "", takes = "", ...rest] = cells(line)
    const section = /^\*\*[^*]+\*\*$/.test(method) && [path, takes, ...rest].every((cell) => cell === "")
    const route = /^`([^`]+)`$/.exec(path)
    if ((method === "GET" || method === "POST") && route) rows.push({ key: `${method} ${route[1]}`, takes })
    else if (!section) malformed.push(line.trim())
  }
  return { rows, malformed }
}

/** The names in backticks after `Fields:` in a Takes cell, up to the end of that sentence. */
function takesFields(takes: string): string[] {
  const at = takes.indexOf("Fields:")
  if (at === -1) return []
  const sentence = takes.slice(at + "Fields:".length).split(/\.(?:\s|$)|;/)[0]!
  return [...sentence.matchAll(/`([^`]+)`/g)].map((match) => match[1]!)
}

/** The first column of the table under the heading that names `key` in backticks (`### Sign-up: \`POST signup/:provider\``). */
function sectionFields(key: string): string[] | undefined {
  const lines = markdown.split("\n")
  const start = lines.findIndex((line) => /^#{2,4} /.test(line) && line.includes(`\`${key}\``))
  if (start === -1) return undefined
  const fields: string[] = []
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,4} /.test(line)) break
    if (!line.trim().startsWith("|")) continue
    const name = /^`([^`]+)`$/.exec(cells(line)[0]!)
    if (name) fields.push(name[1]!)
  }
  return fields
}

const sorted = (names: Iterable<string>) => [...new Set(names)].sort()

describe(pageName, () => {
  const { rows, malformed } = endpointTable()
  const keys = routeKeys()

  it("has one endpoint table, whose rows are routes (`GET` or `POST`, the path in backticks) or bold section rows", () => {
    expect(markdown.split("\n").filter((line) => line.trim() === tableHeader), `${pageName} must have one table headed "${tableHeader}".`).toHaveLength(1)
    expect(malformed, `Rows of ${pageName}'s endpoint table that name no route: write "| GET | \`path\` | … |", or a section row "| **Title** | | | | |".`).toEqual([])
    expect(keys).toContain("GET csrf")
  })

  it("documents every route of the dispatcher's table in exactly one row", () => {
    const missing = keys.filter((key) => !rows.some((row) => row.key === key))
    expect(
      missing,
      `Endpoints without documentation: ${missing.join(", ")}. Document each endpoint in ${pageName}: one row of its table, "| ${missing[0]?.split(" ")[0] ?? "GET"} | \`${missing[0]?.split(" ")[1] ?? "path"}\` | Takes | Answers | Errors |".`,
    ).toEqual([])
    const repeated = sorted(rows.map((row) => row.key).filter((key, i, all) => all.indexOf(key) !== i))
    expect(repeated, `Endpoints documented in more than one row of ${pageName}'s table: ${repeated.join(", ")}.`).toEqual([])
  })

  it("names no route that does not exist", () => {
    const unknown = rows.map((row) => row.key).filter((key) => !keys.includes(key))
    expect(unknown, `${pageName} documents endpoints the dispatcher does not serve: ${unknown.join(", ")}. Remove their rows, or correct their method or path.`).toEqual([])
  })

  describe("the password forms' fields", () => {
    const config: AuthConfig = { secret, adapter: MemoryAdapter(), providers: [Password({ sendEmail: () => {} })], logger: { error: () => {}, warn: () => {}, debug: () => {} } }
    const link = new URLSearchParams({ token: "a-link-token", email: "ada@example.com" })
    const forms = [
      { key: "POST signup/:provider", page: "/auth/signup" },
      { key: "POST forgot-password/:provider", page: "/auth/forgot-password" },
      { key: "POST reset-password/:provider", page: `/auth/reset-password/password?${link}` },
      { key: "POST verify-email/:provider", page: `/auth/verify-email/password?${link}` },
    ]

    /** The `name`s of the inputs and buttons of the page's form that posts to `key`'s endpoint (with the provider `password`). */
    async function rendered(page: string, key: string): Promise<string[]> {
      const response = await Auth(new Request(`http://localhost${page}`), config)
      expect(response.status, `GET ${page}`).toBe(200)
      const html = await response.text()
      const action = `http://localhost/auth/${key.split(" ")[1]!.replace(":provider", "password")}`
      const form = [...html.matchAll(/<form\b[^>]*\baction="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)].find((match) => match[1] === action)
      if (!form) throw new Error(`GET ${page} renders no form posting to ${action}`)
      return [...form[2]!.matchAll(/<(?:input|button|select|textarea)\b[^>]*?\sname="([^"]*)"/g)].map((match) => match[1]!)
    }

    it.each(forms)("$key: the Takes cell and the form's section list what its built-in page posts", async ({ key, page }) => {
      const posted = sorted(await rendered(page, key))
      expect(posted).toContain("csrfToken")
      const row = rows.find((r) => r.key === key)
      expect(row, `${pageName} has no row for ${key}`).toBeDefined()
      const documented = { "Takes cell (after \"Fields:\")": takesFields(row!.takes), "field table (under the heading that names it)": sectionFields(key) ?? [] }
      for (const [where, names] of Object.entries(documented)) {
        const listed = sorted(names)
        const unlisted = posted.filter((name) => !listed.includes(name))
        const extra = listed.filter((name) => !posted.includes(name))
        expect(listed, `${pageName}, ${key}: its ${where} must list the fields the built-in form posts; missing: ${unlisted.join(", ") || "none"}; not posted: ${extra.join(", ") || "none"}.`).toEqual(posted)
      }
    })
  })
})
