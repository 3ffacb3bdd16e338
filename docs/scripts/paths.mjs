/**
 * Where the documentation site's sources and output live, and the fingerprint that says whether a
 * build on disk is current.
 *
 * @module
 */
import { createHash } from "node:crypto"
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"

export const docsDir = join(dirname(fileURLToPath(import.meta.url)), "..")
export const root = join(docsDir, "..")
export const buildDir = join(docsDir, "build")
/** The staged pages VitePress reads (`srcDir` in .vitepress/config.mjs). */
export const sourceDir = join(buildDir, "src")
export const distDir = join(buildDir, "dist")

/** Folders of docs/ that hold no page. */
const notPages = new Set(["build", "node_modules", "scripts", "test", ".vitepress"])

/** docs/**\/*.md, relative to docs/: the site's own pages. */
export function docPages(dir = docsDir) {
  const found = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (dir === docsDir && notPages.has(entry.name)) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) found.push(...docPages(path))
    else if (entry.name.endsWith(".md")) found.push(relative(docsDir, path))
  }
  return found.sort()
}

/** The READMEs the site includes, relative to the repository: every package's and every example's. */
export function readmes() {
  const found = []
  for (const group of ["packages", "examples"]) {
    for (const name of readdirSync(join(root, group)).sort()) {
      const readme = join(group, name, "README.md")
      if (existsSync(join(root, readme))) found.push(readme)
    }
  }
  return found
}

function* files(dir, test) {
  if (!existsSync(dir)) return
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist" || entry.name === "build" || entry.name.startsWith(".scratch")) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* files(path, test)
    else if (test(path)) yield path
  }
}

/**
 * A hash of everything the site is made from: its pages, config and scripts, the READMEs, the
 * packages' sources and manifests (the API reference), and the installed VitePress and TypeDoc.
 */
export function fingerprint() {
  const hash = createHash("sha256")
  const inputs = [
    ...docPages().map((page) => join(docsDir, page)),
    // The config and the theme; not what VitePress writes there itself while it builds.
    ...files(join(docsDir, ".vitepress"), (p) => !/[\\/]\.vitepress[\\/](cache|\.temp)[\\/]/.test(p)),
    ...files(join(docsDir, "scripts"), () => true),
    ...readmes().map((readme) => join(root, readme)),
    ...readdirSync(join(root, "packages")).flatMap((name) => [
      ...files(join(root, "packages", name, "src"), (p) => p.endsWith(".ts") || p.endsWith(".tsx")),
      join(root, "packages", name, "package.json"),
    ]),
    join(root, "package-lock.json"),
  ]
  for (const path of inputs) {
    if (!existsSync(path) || !statSync(path).isFile()) continue
    hash.update(relative(root, path)).update("\0").update(readFileSync(path)).update("\0")
  }
  return hash.digest("hex")
}
