/**
 * Content digests of build inputs, for the builds that `npm start` skips when nothing changed (the
 * packages, the demo app). Contents, not modification times: a fresh clone, a checkout or a
 * `touch` must not count as a change, and an edit must.
 */
import { createHash } from "node:crypto"
import { existsSync, readFileSync, readdirSync } from "node:fs"
import { join, relative } from "node:path"

/** Every file below `dir`, in a stable order, leaving out entries whose name `skip` accepts. */
export function* filesBelow(dir, skip = () => false) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (skip(entry.name)) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* filesBelow(path, skip)
    else if (entry.isFile()) yield path
  }
}

/**
 * SHA-256 (hex) over Node's version and each existing file of `paths`: its path relative to `root`
 * and its contents. A missing file is left out.
 */
export function digestFiles(root, paths) {
  const hash = createHash("sha256").update(process.version)
  for (const path of paths) {
    if (existsSync(path)) hash.update(relative(root, path)).update("\0").update(readFileSync(path)).update("\0")
  }
  return hash.digest("hex")
}
