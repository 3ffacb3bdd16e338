/**
 * What goes wrong is said in one line on stderr, with a non-zero exit code and nothing on stdout.
 */
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createServer } from "node:net"
import { defaultTableNames } from "@sesame/sql-common"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { serverUrl as pgServer, testSchema, withSearchPath } from "../../adapter-pg/test/database.js"
import { admin as mysqlAdmin, testDatabase } from "../../adapter-mysql/test/database.js"
import { root, run, sesame, type Run } from "./run.js"

function oneLine(result: Run, code: number, pattern: RegExp) {
  expect(result.code).toBe(code)
  expect(result.stdout).toBe("")
  expect(result.stderr).toMatch(/^sesame: [^\n]+\n$/)
  expect(result.stderr).toMatch(pattern)
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe("sesame errors", () => {
  it("an unknown adapter, a missing option, an unknown command", async () => {
    oneLine(await sesame(["migrate", "--adapter", "mongodb", "--url", "x"]), 2, /Unknown adapter "mongodb": use pg, mysql or sqlite\./)
    oneLine(await sesame(["schema"]), 2, /Missing --adapter/)
    oneLine(await sesame(["migrate", "--adapter", "pg"]), 2, /Missing --url: .*postgres:\/\//)
    oneLine(await sesame(["launch"]), 2, /Unknown command "launch"/)
    oneLine(await sesame(["secret", "--bogus"]), 2, /Unknown option '--bogus'/)
    oneLine(await sesame(["schema", "--adapter", "pg", "--tables", "users=x;y"]), 2, /plain SQL identifier/)
  })

  it("a bad URL", async () => {
    oneLine(await sesame(["migrate", "--adapter", "pg", "--url", "localhost:5432/app"]), 2, /--url must start with postgres:\/\/ or postgresql:\/\//)
    oneLine(await sesame(["migrate", "--adapter", "pg", "--url", "not a url"]), 2, /--url is not a valid connection URL: expected something like postgres:\/\//)
    oneLine(await sesame(["migrate", "--adapter", "mysql", "--url", "postgres://127.0.0.1/app"]), 2, /--url must start with mysql:\/\/ or mariadb:\/\//)
    oneLine(await sesame(["migrate", "--adapter", "mysql", "--url", "mysql://root@127.0.0.1:3306"]), 2, /--url names no database/)
  })

  it("an unreachable server, without printing the password", async () => {
    const port = await closedPort()
    const pgRun = await sesame(["migrate", "--adapter", "pg", "--url", `postgres://app:hunter2@127.0.0.1:${port}/app`])
    oneLine(pgRun, 1, new RegExp(`Cannot reach the PostgreSQL server at 127\\.0\\.0\\.1:${port}/app \\(ECONNREFUSED\\): check that it is running`))
    const mysqlRun = await sesame(["migrate", "--adapter", "mysql", "--url", `mysql://app:hunter2@127.0.0.1:${port}/app`])
    oneLine(mysqlRun, 1, new RegExp(`Cannot reach the MySQL server at 127\\.0\\.0\\.1:${port}/app \\(ECONNREFUSED\\)`))
    for (const r of [pgRun, mysqlRun]) expect(r.stderr).not.toContain("hunter2")
  })

  it("a database or SQLite folder that does not exist", async () => {
    oneLine(await sesame(["migrate", "--adapter", "pg", "--url", new URL("/no_such_database", pgServer).href]), 1, /The database in --url does not exist/)
    oneLine(await sesame(["migrate", "--adapter", "pg", "--url", withSearchPath(pgServer, "no_such_schema")]), 1, /schema in the URL's search_path does not exist/)
    const missing = join(mkdtempSync(join(tmpdir(), "sesame-cli-")), "no", "such", "auth.db")
    oneLine(await sesame(["migrate", "--adapter", "sqlite", "--url", missing]), 1, /Cannot open the SQLite file .*folder exists/)
  })

  describe("missing privileges", () => {
    const role = `sesame_readonly_${crypto.randomUUID().slice(0, 8)}`
    const schema = testSchema("noprivs")
    const database = testDatabase("noprivs")
    const sql = async (text: string) => {
      const client = new pg.Client({ connectionString: pgServer })
      await client.connect()
      await client.query(text).finally(() => client.end())
    }
    beforeAll(async () => {
      await schema.create()
      await sql(`CREATE ROLE ${role} LOGIN`)
      await sql(`GRANT USAGE ON SCHEMA "${schema.name}" TO ${role}`)
      await database.create()
      await mysqlAdmin(`CREATE USER '${role}'@'127.0.0.1'`)
      await mysqlAdmin(`GRANT SELECT ON \`${database.name}\`.* TO '${role}'@'127.0.0.1'`)
    })
    afterAll(async () => {
      await schema.drop()
      await sql(`DROP ROLE IF EXISTS ${role}`)
      await database.drop()
      await mysqlAdmin(`DROP USER IF EXISTS '${role}'@'127.0.0.1'`)
    })

    it("a user who may not create tables", async () => {
      const pgUrl = new URL(schema.url)
      pgUrl.username = role
      oneLine(await sesame(["migrate", "--adapter", "pg", "--url", pgUrl.href]), 1, /lacks a privilege that migrate needs .*grant it CREATE/)
      const mysqlUrl = new URL(database.url)
      mysqlUrl.username = role
      oneLine(await sesame(["migrate", "--adapter", "mysql", "--url", mysqlUrl.href]), 1, /lacks a privilege that migrate needs .*grant it CREATE/)
    })
  })

  it("--help, and no command at all", async () => {
    const help = await sesame(["--help"])
    expect(help).toMatchObject({ code: 0, stderr: "" })
    expect(help.stdout).toContain("Usage: sesame <command>")
    // Every role --tables accepts is listed, in the help as in the README.
    const readme = readFileSync(join(root, "packages/cli/README.md"), "utf8")
    for (const role of Object.keys(defaultTableNames)) {
      expect(help.stdout).toMatch(new RegExp(`[ (]${role}[,)]`))
      expect(readme).toContain(`\`${role}\``)
    }
    const bare = await sesame([])
    expect(bare.code).toBe(2)
    expect(bare.stdout).toContain("Usage: sesame <command>")
  })

  it("npx sesame works from the repository root", async () => {
    const result = await run("npx", ["--no-install", "sesame", "--help"], root)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain("Usage: sesame <command>")
  })
})
