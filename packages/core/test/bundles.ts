/**
 * Copies of the core bundled as an app's build makes them: each bundle holds its own copy of every
 * module (a framework makes one per target, such as Next.js's proxy, route handlers and pages),
 * for Node.js (`node` condition) or for a runtime without it (`neutral`: Edge, workers), minified
 * or not. Bundled from the sources, so no build is needed first.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { rolldown } from "rolldown"
import type { Auth as AuthFunction } from "@sesame/core"
import type CredentialsFunction from "@sesame/core/providers/credentials"

const core = join(import.meta.dirname, "..")

/** What a bundle exports. */
export interface CoreBundle {
  Auth: typeof AuthFunction
  Credentials: typeof CredentialsFunction
}

const coreEntry = `export { Auth } from "@sesame/core"
export { default as Credentials } from "@sesame/core/providers/credentials"
`

export interface BundleOptions {
  platform: "node" | "neutral"
  minify?: boolean
  /** Modules left to the runtime to import (resolved from where the bundle is written). */
  external?: string[]
  /** Modules replaced by the given source, for what only a framework's runtime provides. */
  stubs?: Record<string, string>
}

/** Bundles the module whose source is `source` (resolved from the core's folder) into `file`, an ES module. */
export async function bundleModule(file: string, source: string, options: BundleOptions): Promise<string> {
  const conditions = options.platform === "node" ? ["sesame-source", "node", "import", "default"] : ["sesame-source", "import", "default"]
  const virtual = new Map<string, string>([[join(core, "test", "sesame-entry.ts"), source]])
  const stubbed = new Map<string, string>()
  for (const [name, code] of Object.entries(options.stubs ?? {})) {
    const id = join(core, "test", `sesame-stub-${stubbed.size}.js`)
    stubbed.set(name, id)
    virtual.set(id, code)
  }
  const bundle = await rolldown({
    input: join(core, "test", "sesame-entry.ts"),
    cwd: core,
    platform: options.platform,
    external: options.external,
    // Edge bundlers (Next.js, Vercel, Cloudflare's) read `module`/`main` of packages without
    // `exports` (the @oslojs ones); rolldown's neutral platform reads neither unless told.
    resolve: { conditionNames: conditions, mainFields: ["module", "main"] },
    logLevel: "warn",
    plugins: [
      {
        name: "sesame-virtual",
        resolveId: (id) => (virtual.has(id) ? { id } : stubbed.has(id) ? { id: stubbed.get(id)! } : null),
        load: (id) => virtual.get(id) ?? null,
      },
    ],
  })
  try {
    // One file, as an edge runtime is given: the core's lazy imports of its own modules (the
    // account page's server functions) go inline.
    await bundle.write({ file, format: "esm", minify: options.minify ?? false, codeSplitting: false })
  } finally {
    await bundle.close()
  }
  return file
}

/** Bundles the core (with the credentials provider) into `file`, an ES module without imports but Node's built-ins. */
export function bundleCore(file: string, options: BundleOptions): Promise<string> {
  return bundleModule(file, coreEntry, options)
}

const folders: string[] = []

/** A fresh folder under the system's temporary folder, removed by {@link removeTemporaryFolders}. */
export function temporaryFolder(name: string): string {
  const folder = mkdtempSync(join(tmpdir(), `sesame-${name}-`))
  folders.push(folder)
  return folder
}

export function removeTemporaryFolders(): void {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
}

/** Loads a bundle made by {@link bundleCore}. */
export async function loadBundle(file: string): Promise<CoreBundle> {
  return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as CoreBundle
}

/** Writes `source` to `name` in `folder`; returns the path. */
export function writeScript(folder: string, name: string, source: string): string {
  const path = join(folder, name)
  writeFileSync(path, source)
  return path
}
