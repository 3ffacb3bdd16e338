/**
 * `sesame migrate --from authjs --check`: reads an Auth.js database and says, before the switch,
 * what Sesame will change for its users and what the app must do. It never writes: the database
 * is opened read-only ({@link Dialect.openReadOnly}), and only SELECTs are sent.
 *
 * Exit code 0 when nothing blocks the switch, 1 when something does (users whose addresses
 * collide once normalised), with the reasons on stderr after the report.
 *
 * @module
 */
import type { Dialect } from "../dialects.js"
import { explain } from "../errors.js"
import { findings } from "./findings.js"
import { readAuthjs, type AuthjsTables } from "./read.js"
import { report } from "./report.js"

export interface CheckIo {
  out(line: string): void
  err(line: string): void
}

/** Runs the check on the database at `url`; resolves with the exit code. */
export async function checkAuthjs(dialect: Dialect, url: string, tables: Partial<AuthjsTables>, io: CheckIo): Promise<number> {
  const db = await dialect.openReadOnly(url)
  let data
  try {
    data = await readAuthjs(db, tables)
  } catch (error) {
    throw explain(error, db.kind, db.server, "read")
  } finally {
    await db.close()
  }
  const { lines, blockers } = report(data, findings(data), db)
  for (const line of lines) io.out(line)
  if (blockers.length === 0) return 0
  io.err(`sesame: the switch from Auth.js is blocked: ${blockers.join("; ")}.`)
  return 1
}
