/**
 * `sesame secret`: a new random secret for `AUTH_SECRET`, 32 random bytes in base64url (43
 * characters). With `--write` it goes into `.env.local` instead of the terminal: the file is
 * created (readable by its owner only), or its `AUTH_SECRET` line replaced, every other line kept.
 *
 * @module
 */
import { randomBytes } from "node:crypto"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/** A new secret: 32 random bytes, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString("base64url")
}

const secretLine = /^[ \t]*(?:export[ \t]+)?AUTH_SECRET[ \t]*=.*$/m

/** `text` with its AUTH_SECRET line set to `secret` (replaced where present, else appended). */
export function withSecret(text: string, secret: string): { text: string; replaced: boolean } {
  const line = `AUTH_SECRET=${secret}`
  if (secretLine.test(text)) return { text: text.replace(secretLine, () => line), replaced: true }
  const separator = text === "" || text.endsWith("\n") ? "" : "\n"
  return { text: `${text}${separator}${line}\n`, replaced: false }
}

/** Writes a new secret into `<dir>/.env.local`; returns what to tell the user (not the secret). */
export function writeSecret(dir: string): string {
  const file = join(dir, ".env.local")
  const existed = existsSync(file)
  const { text, replaced } = withSecret(existed ? readFileSync(file, "utf8") : "", newSecret())
  writeFileSync(file, text, existed ? undefined : { mode: 0o600 })
  return replaced ? `Replaced AUTH_SECRET in ${file} with a new secret.` : `Wrote a new AUTH_SECRET to ${file}.`
}
