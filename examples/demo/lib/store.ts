/**
 * The demo's one SQLite file: Sesame's tables (through `@sesame/adapter-sqlite`) and the demo's
 * own `demo_passwords`, which keeps the credentials sign-in's argon2id hashes next to the users.
 *
 * `DATABASE_FILE` names the file (default `.data/sesame.db` in the app's folder, made on first use).
 */
import { mkdirSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import Database from "better-sqlite3"
import SqliteAdapter from "@sesame/adapter-sqlite"

// The ignore comment: a path from the environment is not a file for Next.js to trace into the build.
const file = process.env.DATABASE_FILE ? resolve(/* turbopackIgnore: true */ process.env.DATABASE_FILE) : join(process.cwd(), ".data", "sesame.db")
mkdirSync(dirname(file), { recursive: true })

const database = new Database(file)
// Creates or upgrades Sesame's tables, and turns on foreign keys and WAL, before anything else runs.
export const adapter = SqliteAdapter(database)

database.exec(`CREATE TABLE IF NOT EXISTS demo_passwords (
  user_id TEXT PRIMARY KEY REFERENCES sesame_users(id) ON DELETE CASCADE,
  hash TEXT NOT NULL
)`)

/** The stored password hash of the user with this email, or null. */
export function passwordHashOf(email: string): { userId: string; hash: string } | null {
  const row = database
    .prepare("SELECT p.user_id AS userId, p.hash AS hash FROM demo_passwords p JOIN sesame_users u ON u.id = p.user_id WHERE u.email = ?")
    .get(email) as { userId: string; hash: string } | undefined
  return row ?? null
}

export function setPasswordHash(userId: string, hash: string): void {
  database.prepare("INSERT INTO demo_passwords (user_id, hash) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash").run(userId, hash)
}
