/**
 * The DDL of declared models, as text, per dialect: types, defaults, keys, references and the
 * names of indexes and constraints.
 */
import { describe, expect, it } from "vitest"
import type { ModelDeclaration } from "@sesame/core/adapters"
import { modelSchemaText, modelTableStatements } from "@sesame/sql-common"

const place: ModelDeclaration = {
  name: "place",
  table: "app_places",
  primaryKey: "id",
  fields: {
    id: { type: "integer" },
    ownerId: { type: "string", references: { model: "user" } },
    name: { type: "string", unique: true },
    about: { type: "text", default: `it's a \\ path` },
    open: { type: "boolean", default: true },
    since: { type: "date", default: "2025-01-02T03:04:05.678Z" },
    extra: { type: "json", optional: true, column: "extra_json" },
  },
  indexes: [{ fields: ["ownerId", "since"] }],
}

const visit: ModelDeclaration = {
  name: "visit",
  table: "app_visits",
  primaryKey: ["placeId", "day"],
  fields: {
    placeId: { type: "integer", references: { model: "place" } },
    day: { type: "string" },
    guestId: { type: "string", optional: true, references: { model: "user", onDelete: "set null" } },
  },
}

const options = { usersTable: "sesame_users", models: [place, visit] }

describe("modelTableStatements", () => {
  it("writes PostgreSQL's table, with named keys and every index beside it", () => {
    expect(modelTableStatements("pg", place, options)).toEqual([
      `CREATE TABLE "app_places" (
  "id" BIGINT NOT NULL,
  "ownerId" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "about" TEXT NOT NULL DEFAULT 'it''s a \\ path',
  "open" BOOLEAN NOT NULL DEFAULT TRUE,
  "since" TIMESTAMPTZ(3) NOT NULL DEFAULT '2025-01-02T03:04:05.678Z',
  "extra_json" TEXT,
  CONSTRAINT "app_places_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "app_places_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "sesame_users" ("id") ON DELETE CASCADE
)`,
      `CREATE UNIQUE INDEX "app_places_name_key" ON "app_places" ("name")`,
      `CREATE INDEX "app_places_ownerId_since_idx" ON "app_places" ("ownerId", "since")`,
    ])
  })

  it("writes MySQL's with the users table's key type, UTC dates, escaped defaults and InnoDB options", () => {
    expect(modelTableStatements("mysql", place, options)).toEqual([
      `CREATE TABLE \`app_places\` (
  \`id\` BIGINT NOT NULL,
  \`ownerId\` VARCHAR(255) NOT NULL,
  \`name\` VARCHAR(255) NOT NULL,
  \`about\` MEDIUMTEXT NOT NULL DEFAULT ('it''s a \\\\ path'),
  \`open\` BOOLEAN NOT NULL DEFAULT 1,
  \`since\` DATETIME(3) NOT NULL DEFAULT '2025-01-02 03:04:05.678',
  \`extra_json\` MEDIUMTEXT,
  PRIMARY KEY (\`id\`),
  CONSTRAINT \`app_places_ownerId_fkey\` FOREIGN KEY (\`ownerId\`) REFERENCES \`sesame_users\` (\`id\`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
      "CREATE UNIQUE INDEX `app_places_name_key` ON `app_places` (`name`)",
      "CREATE INDEX `app_places_ownerId_since_idx` ON `app_places` (`ownerId`, `since`)",
    ])
  })

  it("writes SQLite's with dates as milliseconds and flags as integers", () => {
    expect(modelTableStatements("sqlite", place, options)[0]).toBe(`CREATE TABLE "app_places" (
  "id" INTEGER NOT NULL,
  "ownerId" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "about" TEXT NOT NULL DEFAULT 'it''s a \\ path',
  "open" INTEGER NOT NULL DEFAULT 1,
  "since" INTEGER NOT NULL DEFAULT 1735787045678,
  "extra_json" TEXT,
  PRIMARY KEY ("id"),
  CONSTRAINT "app_places_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "sesame_users" ("id") ON DELETE CASCADE
)`)
  })

  it("refers to a declared model's key, clears on delete when asked, and indexes a referring field no index leads with", () => {
    const [create, ...indexes] = modelTableStatements("pg", visit, { ...options, tables: { place: "renamed_places" } })
    expect(create).toContain(`CONSTRAINT "app_visits_placeId_fkey" FOREIGN KEY ("placeId") REFERENCES "renamed_places" ("id") ON DELETE CASCADE`)
    expect(create).toContain(`CONSTRAINT "app_visits_guestId_fkey" FOREIGN KEY ("guestId") REFERENCES "sesame_users" ("id") ON DELETE SET NULL`)
    // "placeId" leads the primary key, which serves the cascade; "guestId" gets an index of its own.
    expect(indexes).toEqual([`CREATE INDEX "app_visits_guestId_idx" ON "app_visits" ("guestId")`])
  })

  it("keeps derived names within 63 characters, ending in a hash of the whole name", () => {
    const table = "t".repeat(48)
    const model: ModelDeclaration = {
      name: "long",
      table,
      primaryKey: "id",
      fields: { id: { type: "string" }, aVeryLongFieldName: { type: "string", index: true }, anotherLongFieldName: { type: "string", index: true } },
    }
    const indexes = modelTableStatements("pg", model, options).slice(1)
    const names = indexes.map((s) => /INDEX "([^"]+)"/.exec(s)![1]!)
    expect(names).toHaveLength(2)
    for (const name of names) {
      expect(name).toHaveLength(63)
      expect(name.startsWith(`${table}_a`)).toBe(true)
      expect(name).toMatch(/_[0-9a-f]{8}_idx$/)
    }
    expect(names[0]).not.toBe(names[1])
    // The same declaration gives the same names, which is how a later run finds them.
    expect(modelTableStatements("pg", model, options).slice(1)).toEqual(indexes)
  })

  it("refuses a reference of the wrong type, to an unknown model, or to a key of several fields", () => {
    const refersTo = (field: ModelDeclaration["fields"][string], models: ModelDeclaration[] = [place, visit]): (() => string[]) => () =>
      modelTableStatements("pg", { name: "bad", table: "bad", primaryKey: "id", fields: { id: { type: "string" }, ref: field } }, { ...options, models })
    expect(refersTo({ type: "integer", references: { model: "user" } })).toThrow(/refers to a user, whose id is a string/)
    expect(refersTo({ type: "string", references: { model: "place" } })).toThrow(/whose key is of type integer/)
    expect(refersTo({ type: "string", references: { model: "nowhere" } })).toThrow(/"nowhere", which is not among the models/)
    expect(refersTo({ type: "integer", references: { model: "visit" } })).toThrow(/primary key has several fields/)
  })

  it("takes a table's new name from `tables` by model name, as an adapter's renamed role", () => {
    const passwords: ModelDeclaration = { name: "passwords", table: "sesame_passwords", primaryKey: "userId", fields: { userId: { type: "string", references: { model: "user" } } } }
    expect(modelTableStatements("sqlite", passwords, { ...options, tables: { passwords: "app_passwords", users: "app_users" } })).toEqual([
      `CREATE TABLE "app_passwords" (
  "userId" TEXT NOT NULL,
  PRIMARY KEY ("userId"),
  CONSTRAINT "app_passwords_userId_fkey" FOREIGN KEY ("userId") REFERENCES "sesame_users" ("id") ON DELETE CASCADE
)`,
    ])
  })
})

describe("modelSchemaText", () => {
  it("prints every table after those it refers to, and refuses a cycle", () => {
    const text = modelSchemaText("sqlite", [visit, place], { usersTable: "sesame_users" })
    expect(text.indexOf(`CREATE TABLE "app_places"`)).toBeLessThan(text.indexOf(`CREATE TABLE "app_visits"`))
    expect(text.startsWith("-- declared models\n")).toBe(true)
    const a: ModelDeclaration = { name: "a", table: "a", primaryKey: "id", fields: { id: { type: "string" }, b: { type: "string", references: { model: "b" } } } }
    const b: ModelDeclaration = { name: "b", table: "b", primaryKey: "id", fields: { id: { type: "string" }, a: { type: "string", references: { model: "a" } } } }
    expect(() => modelSchemaText("pg", [a, b], { usersTable: "u" })).toThrow(/cycle/)
  })
})
