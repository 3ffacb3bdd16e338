/**
 * `prisma validate` of the devDependency, run offline (nothing may be downloaded), for the tests of
 * `sesame schema --format prisma`.
 */
import { execFile } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { root } from "./run.js"

/** Validates `schema`, written to a new folder under `scratch`; the exit code and what Prisma printed. */
export function prismaValidate(schema: string, scratch: string): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(join(scratch, "prisma-"))
  writeFileSync(join(dir, "schema.prisma"), schema)
  const cli = join(root, "node_modules", "prisma", "build", "index.js")
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, "validate", "--schema", join(dir, "schema.prisma")],
      {
        cwd: dir,
        timeout: 60_000,
        env: {
          ...process.env,
          // Any download would go nowhere and fail the run. validate uses the WebAssembly engine
          // bundled in the CLI; the schema engine binary it would otherwise fetch is not used.
          HTTP_PROXY: "http://127.0.0.1:9",
          HTTPS_PROXY: "http://127.0.0.1:9",
          PRISMA_ENGINES_MIRROR: "http://127.0.0.1:9",
          PRISMA_SCHEMA_ENGINE_BINARY: process.execPath,
          PRISMA_QUERY_ENGINE_LIBRARY: process.execPath,
          CHECKPOINT_DISABLE: "1",
          PRISMA_HIDE_UPDATE_MESSAGE: "1",
          NO_COLOR: "1",
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: `${stdout}${stderr}` }),
    )
  })
}
