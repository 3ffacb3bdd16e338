/**
 * What `auth()` logs in a production build: Next.js minifies the server bundle, which renames
 * classes, so a log line built from an error's class name read `A: No secret is set…`. The line
 * names the error's `type` instead. Checked on a minified bundle of this package and the core,
 * run by Node.js in a process of its own with `NODE_ENV=production` and no secret.
 */
import { execFile } from "node:child_process"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bundleModule } from "../../core/test/bundles.js"

const run = promisify(execFile)
// Inside the workspace, so that the bundle's one external import (next/server.js) resolves.
const folder = join(import.meta.dirname, ".scratch", "logs")
let program: string

const entry = `export { default as Sesame } from "@sesame/next"
export { default as Credentials } from "@sesame/core/providers/credentials"
`

/** What only a running Next.js server provides: the request's headers and cookies. */
const stubs = {
  "next/headers.js": `export const headers = async () => new Headers({ host: "localhost:3000" })
export const cookies = async () => ({ getAll: () => [], get: () => undefined, set: () => {} })`,
  "next/navigation": `export function redirect(url) { throw new Error("NEXT_REDIRECT " + url) }`,
  react: `export const cache = (fn) => fn`,
}

beforeAll(async () => {
  rmSync(folder, { recursive: true, force: true })
  mkdirSync(folder, { recursive: true })
  const bundle = await bundleModule(join(folder, "app.mjs"), entry, { platform: "node", minify: true, external: ["next/server.js"], stubs })
  program = join(folder, "program.mjs")
  writeFileSync(
    program,
    `const { Sesame, Credentials } = await import(${JSON.stringify(bundle)})
const { auth } = Sesame({ providers: [Credentials({ authorize: () => null })] })
process.stdout.write(JSON.stringify(await auth()))
`,
  )
}, 60_000)
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe("auth() in a minified production build without a secret", () => {
  it("answers null and logs the error's type, MissingSecret, not a renamed class", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", AUTH_URL: "http://localhost:3000" }
    delete env.AUTH_SECRET
    delete env.SESAME_SECRET
    const { stdout, stderr } = await run(process.execPath, [program], { env })
    expect(stdout).toBe("null")
    expect(stderr).toMatch(/^\[sesame\]\[error\] auth\(\) could not read the session and answers null \(signed out\): MissingSecret: No secret is set\. Set AUTH_SECRET/)
    expect(stderr).not.toMatch(/\): [A-Za-z_$][\w$]{0,2}: /)
  })
})
