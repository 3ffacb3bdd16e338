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

const entry = `export { Auth } from "@sesame/core"
export { default as Credentials } from "@sesame/core/providers/credentials"
`

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

/** Bundles the core (with the credentials provider) into `file`, an ES module without imports but Node's built-ins. */
export async function bundleCore(file: string, options: { platform: "node" | "neutral"; minify?: boolean }): Promise<string> {
  const conditions = options.platform === "node" ? ["sesame-source", "node", "import", "default"] : ["sesame-source", "import", "default"]
  const bundle = await rolldown({
    input: "sesame-entry",
    cwd: core,
    platform: options.platform,
    resolve: { conditionNames: conditions },
    logLevel: "warn",
    plugins: [
      {
        name: "sesame-entry",
        resolveId: (id) => (id === "sesame-entry" ? { id: join(core, "test", "sesame-entry.ts") } : null),
        load: (id) => (id === join(core, "test", "sesame-entry.ts") ? entry : null),
      },
    ],
  })
  try {
    await bundle.write({ file, format: "esm", minify: options.minify ?? false })
  } finally {
    await bundle.close()
  }
  return file
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
