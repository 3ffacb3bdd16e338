/**
 * The README's examples, extracted and run as written: the configuration, the catch-all endpoint,
 * the middleware, the JSON endpoint and the sign-out endpoint, laid out as in an Astro app's `src`
 * and driven through Astro's middleware pieces (the one change: `astro:middleware`, a virtual
 * module of Astro's build, is its public twin `astro/middleware`). The TypeScript blocks are also
 * compiled as written, with `src/env.d.ts`'s reference to `astro/client` typing `astro:middleware`
 * and `App.Locals`.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import type { APIContext, MiddlewareHandler } from "astro"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { call, CookieJar, localsOf, origin, type Site } from "./helpers.js"

const readme = join(import.meta.dirname, "..", "README.md")
const scratch = join(import.meta.dirname, ".scratch", "readme")

/** The code block that follows `<!-- example: <name> (…) -->` in the README. */
function example(name: string): string {
  const match = new RegExp(`<!-- example: ${name}(?: \\([^)]*\\))? -->\\n\`\`\`\\w+\\n([\\s\\S]*?)^\`\`\``, "m").exec(readFileSync(readme, "utf8"))
  if (!match) throw new Error(`no example "${name}" in the README`)
  return match[1]!
}

/** The blocks, by the file each names in its first line. */
const files = ["auth", "endpoint", "middleware", "env", "me", "logout"].map((name) => {
  const code = example(name)
  const path = /^\/\/ (src\/\S+)/.exec(code)?.[1]
  if (!path) throw new Error(`the "${name}" example does not name its file`)
  return { name, path, code }
})

type Endpoint = (context: APIContext) => Promise<Response>
let site: Site

beforeAll(async () => {
  rmSync(scratch, { recursive: true, force: true })
  vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
  for (const { path, code } of files) {
    const file = join(scratch, path)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, code.replace(`from "astro:middleware"`, `from "astro/middleware"`))
  }
  const load = async <T>(path: string): Promise<T> => (await import(join(scratch, path))) as T
  const endpoint = await load<{ GET: Endpoint; POST: Endpoint; prerender: boolean }>("src/pages/auth/[...sesame].ts")
  expect(endpoint.prerender).toBe(false)
  const { onRequest } = await load<{ onRequest: MiddlewareHandler }>("src/middleware.ts")
  const me = await load<{ GET: Endpoint }>("src/pages/api/me.ts")
  const logout = await load<{ POST: Endpoint }>("src/pages/logout.ts")
  site = {
    onRequest,
    endpoints: { "/auth/*": endpoint, "/api/me": me, "/logout": logout },
    pages: { "/dashboard": (Astro) => `Hello ${localsOf(Astro).session?.user?.name}` },
  }
})

afterAll(() => {
  vi.unstubAllEnvs()
  rmSync(scratch, { recursive: true, force: true })
})

describe("the README's quick start", () => {
  it("signs Ada in through the endpoint, guards /dashboard and /api/me, and signs her out", async () => {
    const jar = new CookieJar()
    expect((await call(site, "/dashboard")).headers.get("location")).toBe(`${origin}/auth/signin?callbackUrl=%2Fdashboard`)
    expect((await call(site, "/api/me", { headers: { accept: "application/json" } })).status).toBe(401)
    const { csrfToken } = (await (await call(site, "/auth/csrf", { jar })).json()) as { csrfToken: string }
    const wrong = await call(site, "/auth/callback/credentials", { jar, form: { csrfToken, email: "ada@example.com", password: "difference engine" } })
    expect(wrong.headers.get("location")).toContain("error=CredentialsSignin")
    await call(site, "/auth/callback/credentials", { jar, form: { csrfToken, email: "ada@example.com", password: "analytical engine" } })
    expect(await (await call(site, "/dashboard", { jar })).text()).toBe("Hello Ada")
    expect(await (await call(site, "/api/me", { jar })).json()).toEqual({ name: "Ada", email: "ada@example.com" })
    const signedOut = await call(site, "/logout", { method: "POST", jar, headers: { origin } })
    expect(signedOut.status).toBe(303)
    expect(jar.get("sesame.session-token")).toBeUndefined()
    expect((await call(site, "/dashboard", { jar })).status).toBe(303)
  })

  // tsc over the framework's types: seconds alone, much longer while the suite's other files load the cores.
  it("compiles, every TypeScript block as written (astro:middleware from astro/client's types)", () => {
    for (const { path, code } of files) writeFileSync(join(scratch, path), code)
    // What a page reads, typed by src/env.d.ts: Astro.locals.session.
    writeFileSync(join(scratch, "src/locals.ts"), `import type { Session } from "@sesame/astro"\ndeclare const locals: App.Locals\nexport const session: Session | null = locals.session\n`)
    writeFileSync(
      join(scratch, "tsconfig.json"),
      JSON.stringify({
        extends: join(import.meta.dirname, "..", "..", "..", "tsconfig.base.json"),
        compilerOptions: { noEmit: true, module: "ESNext", moduleResolution: "Bundler", allowImportingTsExtensions: true, types: ["node"] },
        include: ["src"],
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
