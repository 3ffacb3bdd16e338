/**
 * The README's server examples, extracted and run as written: the configuration, the auth route,
 * the server middleware, the JSON route, the sign-in and sign-out routes, laid out as in a Nuxt
 * app's `server` folder, mounted on an h3 app as Nitro mounts them (middleware first, then the
 * routes by their file names) and served over HTTP. The TypeScript blocks are also compiled as
 * written. The Vue blocks are the example app's, built and driven by examples/nuxt/test/nuxt.test.ts.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { createApp, createRouter, defineEventHandler, type EventHandler } from "h3"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { CookieJar, serveApp, type Running } from "./helpers.js"

const readme = join(import.meta.dirname, "..", "README.md")
const scratch = join(import.meta.dirname, ".scratch", "readme")

/** The code block that follows `<!-- example: <name> (…) -->` in the README. */
function example(name: string): string {
  const match = new RegExp(`<!-- example: ${name}(?: \\([^)]*\\))? -->\\n\`\`\`\\w+\\n([\\s\\S]*?)^\`\`\``, "m").exec(readFileSync(readme, "utf8"))
  if (!match) throw new Error(`no example "${name}" in the README`)
  return match[1]!
}

/** The blocks, by the file each names in its first line. */
const files = ["auth", "route", "middleware", "me", "signin", "signout"].map((name) => {
  const code = example(name)
  const path = /^\/\/ (\S+)/.exec(code)?.[1]
  if (!path) throw new Error(`the "${name}" example does not name its file`)
  return { name, path, code }
})

let app: Running

beforeAll(async () => {
  rmSync(scratch, { recursive: true, force: true })
  vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
  for (const { path, code } of files) {
    const file = join(scratch, path)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, code)
  }
  const load = async (path: string): Promise<EventHandler> => ((await import(join(scratch, path))) as { default: EventHandler }).default
  const h3 = createApp()
  h3.use(await load("server/middleware/sesame.ts"))
  const router = createRouter()
  router.use("/auth/**", await load("server/routes/auth/[...].ts"))
  router.get("/api/me", await load("server/api/me.get.ts"))
  router.post("/signin", await load("server/routes/signin.post.ts"))
  router.post("/signout", await load("server/routes/signout.post.ts"))
  router.get("/dashboard", defineEventHandler((event) => `Hello ${(event.context as { session?: { user?: { name?: string } } }).session?.user?.name}`))
  h3.use(router)
  app = await serveApp(h3)
})

afterAll(async () => {
  await app?.close()
  vi.unstubAllEnvs()
  rmSync(scratch, { recursive: true, force: true })
})

describe("the README's quick start", () => {
  it("guards /dashboard and /api/me, sends a wrong password back with its message, signs Ada in and out", async () => {
    const jar = new CookieJar()
    expect((await app.call("/dashboard")).headers.get("location")).toBe(`${app.origin}/auth/signin?callbackUrl=%2Fdashboard`)
    expect((await app.call("/api/me", { headers: { accept: "application/json" } })).status).toBe(401)
    const wrong = await app.call("/signin", { jar, form: { email: "ada@example.com", password: "difference engine" } })
    expect([wrong.status, wrong.headers.get("location")]).toEqual([303, "/signin?error=CredentialsSignin"])
    const signedIn = await app.call("/signin", { jar, form: { email: "ada@example.com", password: "analytical engine" } })
    expect(signedIn.headers.get("location")).toBe(`${app.origin}/dashboard`)
    expect(await (await app.call("/dashboard", { jar })).text()).toBe("Hello Ada")
    expect(await (await app.call("/api/me", { jar })).json()).toEqual({ name: "Ada", email: "ada@example.com" })
    const signedOut = await app.call("/signout", { jar, form: {} })
    expect(signedOut.status).toBe(303)
    expect(jar.get("sesame.session-token")).toBeUndefined()
    expect((await app.call("/dashboard", { jar })).status).toBe(303)
  })

  // tsc over the framework's types: seconds alone, much longer while the suite's other files load the cores.
  it("compiles, every TypeScript block as written", () => {
    for (const { path, code } of files) writeFileSync(join(scratch, path), code)
    writeFileSync(
      join(scratch, "tsconfig.json"),
      JSON.stringify({
        extends: join(import.meta.dirname, "..", "..", "..", "tsconfig.base.json"),
        compilerOptions: { noEmit: true, module: "ESNext", moduleResolution: "Bundler", types: ["node"] },
        include: ["server"],
      }),
    )
    const tsc = join(import.meta.dirname, "..", "..", "..", "node_modules", "typescript", "bin", "tsc")
    let output = ""
    try {
      execFileSync(process.execPath, [tsc, "-p", join(scratch, "tsconfig.json")], { encoding: "utf8" })
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error)
    }
    expect(output).toBe("")
  }, 120_000)
})
