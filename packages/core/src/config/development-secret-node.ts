/**
 * The development secret's store on Node.js: the file `node_modules/.cache/sesame/development-secret`
 * under the working directory, the project's root when a dev server runs. Every process started
 * there reads the same secret (a dev server's workers, a second dev server, the next start after a
 * restart, so sessions outlive restarts), and nobody else can: the file is its owner's alone
 * (mode 0600) and `node_modules/` is never committed. Reached only through the `node` condition
 * of the `#development-secret` import.
 *
 * The file is created once, atomically: 32 random bytes (hex) are written to a temporary file of
 * their own, which is then hard-linked to the final name. The link either creates the complete file
 * or fails with EEXIST because another process got there first, and then that process's secret is
 * read; a reader never sees a half-written file. When the folder cannot be written (a read-only
 * file system) or the file holds something else, this process uses a random value of its own, and
 * the warning says so.
 *
 * @module
 */
import { randomBytes } from "node:crypto"
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import type { DevelopmentSecret } from "./development-secret.js"

/** Where the secret lives, under the working directory (the warnings in `logger.ts` name it too). */
export const developmentSecretFile = join("node_modules", ".cache", "sesame", "development-secret")

const secretText = /^[0-9a-f]{64}$/

function errorCode(error: unknown): string | undefined {
  const code: unknown = (error as { code?: unknown } | null)?.code
  return typeof code === "string" ? code : undefined
}

/** The secret in `file`, or undefined when there is no file. Throws when it cannot be read or holds something else. */
function readSecret(file: string): string | undefined {
  let text: string
  try {
    text = readFileSync(file, "utf8").trim()
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined
    throw error
  }
  if (!secretText.test(text)) throw new Error(`${file} does not hold a development secret`)
  return text
}

function readOrCreate(file: string): string {
  const existing = readSecret(file)
  if (existing) return existing
  mkdirSync(dirname(file), { recursive: true })
  const value = randomBytes(32).toString("hex")
  const temporary = `${file}.${process.pid}.${randomBytes(8).toString("hex")}.tmp`
  writeFileSync(temporary, `${value}\n`, { mode: 0o600, flag: "wx" })
  try {
    linkSync(temporary, file)
    return value
  } catch (error) {
    if (errorCode(error) !== "EEXIST") throw error
    const winner = readSecret(file)
    if (!winner) throw error
    return winner
  } finally {
    rmSync(temporary, { force: true })
  }
}

export function loadDevelopmentSecret(): DevelopmentSecret {
  try {
    return { kind: "shared", value: readOrCreate(join(process.cwd(), developmentSecretFile)) }
  } catch {
    return { kind: "process", value: randomBytes(32).toString("hex") }
  }
}
