/**
 * README examples for the tests that run them: the code block that follows an
 * `<!-- example: <name> (…) -->` marker.
 *
 * @module
 */
import { readFileSync } from "node:fs"

/** The ```ts (or ```tsx) block that follows `<!-- example: <name> ` in the Markdown file `file`. */
export function readmeExample(file: string, name: string): string {
  const text = readFileSync(file, "utf8")
  const marker = text.indexOf(`<!-- example: ${name} `)
  if (marker === -1) throw new Error(`no example "${name}" in ${file}`)
  const match = /```(?:ts|tsx)\n([\s\S]*?)```/.exec(text.slice(marker))
  if (!match) throw new Error(`example "${name}" has no code block`)
  return match[1]!
}
