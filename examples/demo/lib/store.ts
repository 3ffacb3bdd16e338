/**
 * The demo's one SQLite file: Sesame's tables (through `@sesame/adapter-sqlite`), the password
 * hashes of the password provider and the throttle's counters among them, the plugins' tables, and
 * the columns of the demo's user fields.
 *
 * `DATABASE_FILE` names the file (default `.data/sesame.db` in the app's folder, made on first use).
 */
import { mkdirSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import Database from "better-sqlite3"
import SqliteAdapter, { migrate } from "@sesame/adapter-sqlite"
import type { UserFieldDeclarations } from "@sesame/core"
import { userModel } from "@sesame/core/adapters"
import { auditTrail } from "@sesame/plugin-audit-trail"
import { withOutages } from "./outage"

// The ignore comment: a path from the environment is not a file for Next.js to trace into the build.
const file = process.env.DATABASE_FILE ? resolve(/* turbopackIgnore: true */ process.env.DATABASE_FILE) : join(process.cwd(), ".data", "sesame.db")
mkdirSync(dirname(file), { recursive: true })

const database = new Database(file)
// Creates or upgrades Sesame's tables, and turns on foreign keys and WAL, before anything else runs.
// The home page can take it away for a few seconds (lib/outage.ts).
export const adapter = withOutages(SqliteAdapter(database))

/** The demo's plugins: each user's recent sign-ins, shown on the home page. */
export const plugins = [auditTrail({ keepDays: 30, maxEntries: 10 })]
/**
 * The demo's own user fields (`user.fields` in auth.ts): a role only the app sets, and the language
 * users choose on the home page (`input: true`).
 */
export const userFields = {
  role: { type: "string", default: "member" },
  language: { type: "string", optional: true, input: true },
} as const satisfies UserFieldDeclarations

// The plugins' tables, made (or completed) from their declarations, and the user fields' columns
// added to the users table, before the first request (`sesame migrate --plugin` does the same).
await migrate(database, { models: [...plugins.flatMap((plugin) => [...(plugin.models ?? [])]), userModel(userFields)] })
