/**
 * The README's examples, extracted and run as written: the configuration, the auth resource route,
 * the root's middleware and loader, the JSON resource route, the sign-in and sign-out actions, laid
 * out as in a React Router app's `app` folder and answered by React Router's server runtime. The
 * TypeScript blocks are also compiled as written, `react-router.config.ts` and `app/routes.ts` with
 * them.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { appFor, call, CookieJar, origin, rendered, type RouteModule } from "./helpers.js"

const readme = join(import.meta.dirname, "..", "README.md")
const scratch = join(import.meta.dirname, ".scratch", "readme")

/** The code block that follows `<!-- example: <name> (…) -->` in the README. */
function example(name: string): string {
  const match = new RegExp(`<!-- example: ${name}(?: \\([^)]*\\))? -->\\n\`\`\`\\w+\\n([\\s\\S]*?)^\`\`\``, "m").exec(readFileSync(readme, "utf8"))
  if (!match) throw new Error(`no example "${name}" in the README`)
  return match[1]!
}

/** The blocks, by the file each names in its first line. */
const files = ["config", "auth", "routes", "resource", "root", "me", "login", "logout"].map((name) => {
  const code = example(name)
  const path = /^\/\/ (\S+)/.exec(code)?.[1]
  if (!path) throw new Error(`the "${name}" example does not name its file`)
  return { name, path, code }
})

let app: (request: Request) => Promise<Response>

beforeAll(async () => {
  rmSync(scratch, { recursive: true, force: true })
  vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
  for (const { path, code } of files) {
    const file = join(scratch, path)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, code)
  }
  const load = async (path: string): Promise<RouteModule> => (await import(join(scratch, path))) as RouteModule
  const page = { default: () => null }
  app = appFor(await load("app/root.tsx"), {
    "routes/auth": { path: "auth/*", module: await load("app/routes/auth.ts") },
    "routes/home": { index: true, module: page },
    "routes/dashboard": { path: "dashboard", module: page },
    "routes/api.me": { path: "api/me", module: await load("app/routes/api.me.ts") },
    "routes/login": { path: "login", module: { ...page, ...(await load("app/routes/login.tsx")) } },
    "routes/logout": { path: "logout", module: await load("app/routes/logout.ts") },
  })
})

afterAll(() => {
  vi.unstubAllEnvs()
  rmSync(scratch, { recursive: true, force: true })
})

describe("the README's quick start", () => {
  it("guards /dashboard and /api/me, refuses a wrong password with the action's message, signs Ada in and out", async () => {
    const jar = new CookieJar()
    expect((await call(app, "/dashboard")).headers.get("location")).toBe(`${origin}/auth/signin?callbackUrl=%2Fdashboard`)
    expect((await call(app, "/api/me", { headers: { accept: "application/json" } })).status).toBe(401)
    const wrong = await call(app, "/login", { jar, form: { email: "ada@example.com", password: "difference engine" } })
    expect(wrong.status).toBe(401)
    expect((await rendered(wrong)).actionData).toEqual({ "routes/login": { error: "Wrong email or password." } })
    const signedIn = await call(app, "/login", { jar, form: { email: "ada@example.com", password: "analytical engine" } })
    expect(signedIn.headers.get("location")).toBe(`${origin}/dashboard`)
    expect((await rendered(await call(app, "/dashboard", { jar }))).loaderData.root).toMatchObject({ user: { name: "Ada" } })
    expect(await (await call(app, "/api/me", { jar })).json()).toEqual({ name: "Ada", email: "ada@example.com" })
    const signedOut = await call(app, "/logout", { jar, form: {} })
    expect(signedOut.status).toBe(303)
    expect(jar.get("sesame.session-token")).toBeUndefined()
    expect((await call(app, "/dashboard", { jar })).status).toBe(303)
  })

  it("signs in through the resource route's built-in flow too", async () => {
    const jar = new CookieJar()
    const { csrfToken } = (await (await call(app, "/auth/csrf", { jar })).json()) as { csrfToken: string }
    await call(app, "/auth/callback/credentials", { jar, form: { csrfToken, email: "ada@example.com", password: "analytical engine" } })
    expect(await (await call(app, "/api/me", { jar })).json()).toEqual({ name: "Ada", email: "ada@example.com" })
  })

  // tsc over the framework's types: seconds alone, much longer while the suite's other files load the cores.
  it("compiles, every TypeScript block as written", () => {
    for (const { path, code } of files) writeFileSync(join(scratch, path), code)
    writeFileSync(
      join(scratch, "tsconfig.json"),
      JSON.stringify({
        extends: join(import.meta.dirname, "..", "..", "..", "tsconfig.base.json"),
        compilerOptions: { noEmit: true, module: "ESNext", moduleResolution: "Bundler", types: ["node"] },
        include: ["app", "react-router.config.ts"],
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
