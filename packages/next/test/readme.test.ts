/**
 * The README's examples, saved under the file names it gives them: type-checked together the way
 * a Next.js app compiles them (bundler resolution, the built packages), then run.
 */
import { current, newRequest, redirectTarget } from "./next-request.js"
import { spawnSync } from "node:child_process"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { NextRequest } from "next/server.js"
import type { SesameResult } from "@sesame/next"

const root = join(import.meta.dirname, "..", "..", "..")
const readme = join(import.meta.dirname, "..", "README.md")
const scratch = join(import.meta.dirname, ".scratch", "readme")

/** Each `<!-- example: name (… saved as file) -->` code block, by file name. */
function examples(): Map<string, string> {
  const text = readFileSync(readme, "utf8")
  const found = new Map<string, string>()
  for (const match of text.matchAll(/<!-- example: (\w[\w-]*) \(([^)]*)\) -->\n```(?:ts|tsx)\n([\s\S]*?)```/g)) {
    const file = /saved as ([\w.-]+)/.exec(match[2]!)?.[1] ?? `${match[1]}.ts`
    found.set(file, match[3]!)
  }
  return found
}

beforeAll(() => {
  vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
  // The app is served as app.example.test, behind a proxy that sets the Host header: a host other
  // than a loopback one is only believed when the app says so.
  vi.stubEnv("AUTH_TRUST_HOST", "true")
  mkdirSync(scratch, { recursive: true })
  for (const [file, code] of examples()) writeFileSync(join(scratch, file), code)
  writeFileSync(
    join(scratch, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        lib: ["dom", "dom.iterable", "esnext"],
        module: "esnext",
        moduleResolution: "bundler",
        jsx: "react-jsx",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        isolatedModules: true,
        types: ["node"],
        // The alias create-next-app writes, which the route and layout examples import through.
        paths: { "@/*": ["./*"] },
      },
      include: ["*.ts", "*.tsx"],
    }),
  )
})

afterAll(() => {
  vi.unstubAllEnvs()
})

describe("package README", () => {
  it("has the examples this test expects", () => {
    expect([...examples().keys()].sort()).toEqual([
      "actions.ts",
      "auth.ts",
      "dashboard.tsx",
      "error.tsx",
      "layout.tsx",
      "proxy.ts",
      "route.ts",
      "settings.tsx",
      "types.ts",
      "user-menu.tsx",
    ])
  })

  it("type-checks as an app would compile it, Session and JWT augmentation included", () => {
    const result = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(scratch, "tsconfig.json")], {
      encoding: "utf8",
    })
    expect(result.stdout + result.stderr).toBe("")
    expect(result.status).toBe(0)
  }, 60_000)

  it("runs as written: the guard, the server actions and auth()", async () => {
    current.jar.clear()
    newRequest({ host: "app.example.test" })
    current.headers.delete("x-forwarded-proto")
    const { auth } = (await import(join(scratch, "auth.ts"))) as SesameResult
    const { proxy } = (await import(join(scratch, "proxy.ts"))) as { proxy: SesameResult["auth"] }
    const actions = (await import(join(scratch, "actions.ts"))) as Record<string, (form?: FormData) => Promise<void>>

    const guarded = await proxy(new NextRequest("http://localhost:3000/dashboard", { headers: { host: "app.example.test" } }))
    expect(guarded.headers.get("location")).toBe("http://app.example.test/api/auth/signin?callbackUrl=%2Fdashboard")

    const form = new FormData()
    form.set("email", "ada@example.com")
    form.set("password", "wrong")
    const refused = await actions.signInWithPassword!(form).catch((error: unknown) => error)
    expect(redirectTarget(refused)).toBe("/api/auth/signin?error=CredentialsSignin")

    form.set("password", "analytical engine")
    form.set("redirectTo", "/dashboard")
    expect(redirectTarget(await actions.signInWithPassword!(form).catch((error: unknown) => error))).toBe("http://app.example.test/dashboard")
    expect(await auth()).toMatchObject({ user: { name: "Ada", email: "ada@example.com" } })

    const signedOut = await actions.signOutNow!().catch((error: unknown) => error)
    expect(redirectTarget(signedOut)).toBe("http://app.example.test/")
    expect(await auth()).toBeNull()
  })
})
