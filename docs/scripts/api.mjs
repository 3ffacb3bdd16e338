/**
 * The API reference: TypeDoc over the TSDoc of every public entry point, as Markdown pages the
 * site builds (typedoc-plugin-markdown, with typedoc-vitepress-theme's links and sidebar).
 *
 * One TypeDoc run per published package (those under packages/ that are not private), whose entry
 * points are the TypeScript sources its `exports` name (the `sesame-source` condition), a wildcard
 * expanded to every file it matches. Each package's pages go in `reference/api/<folder>/`; the
 * sidebar of all of them in `reference/api/sidebar.json`.
 *
 * @module
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { Application, LogLevel } from "typedoc"
import { headingId } from "./heading-id.mjs"
import { root } from "./paths.mjs"

/** The published packages: `{ folder, name, entryPoints }`. */
export function publishedPackages() {
  const found = []
  for (const folder of readdirSync(join(root, "packages")).sort()) {
    const manifestPath = join(root, "packages", folder, "package.json")
    if (!existsSync(manifestPath)) continue
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"))
    if (manifest.private) continue
    const entryPoints = []
    for (const [key, target] of Object.entries(manifest.exports ?? {})) {
      const source = target && typeof target === "object" ? target["sesame-source"] : undefined
      if (!source) continue
      if (!key.includes("*")) {
        entryPoints.push(join(root, "packages", folder, source))
        continue
      }
      // "./providers/*" → "./src/providers/*.ts": every file of that folder.
      const [before, after] = source.split("*")
      const dir = join(root, "packages", folder, before)
      for (const file of readdirSync(dir).sort()) {
        if (file.endsWith(after) && !file.endsWith(".d.ts")) entryPoints.push(join(dir, file))
      }
    }
    if (entryPoints.length > 0) found.push({ folder, name: manifest.name, entryPoints })
  }
  return found
}

/** Writes the reference of every published package under `out`; returns how many pages. */
export async function apiReference(out) {
  const sidebar = []
  let pages = 0
  for (const pkg of publishedPackages()) {
    const dir = join(out, pkg.folder)
    const app = await Application.bootstrapWithPlugins({
      name: pkg.name,
      entryPoints: pkg.entryPoints,
      entryPointStrategy: "resolve",
      tsconfig: join(root, "packages", pkg.folder, "tsconfig.json"),
      plugin: ["typedoc-plugin-markdown", "typedoc-vitepress-theme"],
      out: dir,
      readme: "none",
      entryFileName: "index.md",
      // One page per entry point, its members as sections: a reader scrolls one module, and the
      // site builds in a fraction of the time a page per member takes.
      outputFileStrategy: "modules",
      hidePageHeader: true,
      hideBreadcrumbs: false,
      excludePrivate: true,
      excludeInternal: true,
      excludeExternals: true,
      // The packages are type-checked by the build; here only their documentation is read.
      skipErrorChecking: true,
      disableSources: true,
      logLevel: LogLevel.Error,
      // The site's root, which the sidebar's and pages' links start from.
      docsRoot: join(out, "..", ".."),
      sidebar: { autoConfiguration: true, format: "vitepress", pretty: false, collapsed: true },
    })
    const project = await app.convert()
    if (!project) throw new Error(`TypeDoc could not read ${pkg.name}'s entry points`)
    await app.generateOutputs(project)
    mendAnchors(dir)
    const items = JSON.parse(readFileSync(join(dir, "typedoc-sidebar.json"), "utf8"))
    sidebar.push({ text: pkg.name, link: `/${relative(join(out, "..", ".."), join(dir, "index.md")).replace(/\\/g, "/").replace(/\.md$/, "")}`, collapsed: true, items })
    pages += countPages(dir)
  }
  writeFileSync(join(out, "sidebar.json"), JSON.stringify(sidebar))
  return pages
}

/**
 * typedoc-plugin-markdown numbers an anchor (`#accesstokenerrorcode-1`) when a name is used twice
 * in a module, even when only one of the two has a heading on the page (a type alias beside the
 * class's property of that type): such a link is pointed at the one heading there is.
 */
function mendAnchors(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      mendAnchors(path)
      continue
    }
    if (!entry.name.endsWith(".md")) continue
    const text = readFileSync(path, "utf8")
    const seen = new Map()
    const ids = new Set()
    for (const [, heading] of text.matchAll(/^#+ (.*)$/gm)) {
      const base = headingId(heading.replace(/\\/g, ""))
      const count = seen.get(base) ?? 0
      seen.set(base, count + 1)
      ids.add(count === 0 ? base : `${base}-${count}`)
    }
    const mended = text.replace(/\]\(#([^)\s]+)-(\d+)\)/g, (link, base, n) => (ids.has(`${base}-${n}`) || !ids.has(base) ? link : `](#${base})`))
    if (mended !== text) writeFileSync(path, mended)
  }
}

function countPages(dir) {
  let count = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) count += countPages(join(dir, entry.name))
    else if (entry.name.endsWith(".md")) count++
  }
  return count
}
