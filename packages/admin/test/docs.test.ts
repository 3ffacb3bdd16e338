/**
 * docs/features/admin.md: its example run as written (an admin known by a user field suspends a
 * user, whose JWT session ends and whose next sign-in is refused), and its table kept true to the
 * module's endpoints and server functions.
 */
import { callModuleApi, type AuthConfig } from "@sesame/core"
import type { MemoryAdapterInstance } from "@sesame/core/adapters"
import { argon2id } from "@sesame/core/password"
import { readmeExample } from "@sesame/testing"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it, vi } from "vitest"
import { admin } from "@sesame/admin"
import { CookieJar, csrfToken, send } from "../../core/test/helpers.js"
import { storePassword } from "../../core/src/password/storage.js"

const root = join(import.meta.dirname, "..", "..", "..")
const page = join(root, "docs", "features", "admin.md")
const scratch = join(import.meta.dirname, ".scratch")

afterAll(() => vi.unstubAllEnvs())

async function load(name: string): Promise<any> {
  vi.stubEnv("AUTH_SECRET", "admin-docs-secret-0123456789abcdefghijklmnop")
  mkdirSync(scratch, { recursive: true })
  const path = join(scratch, `${name}.ts`)
  writeFileSync(path, readmeExample(page, name))
  return import(path)
}

describe("docs/features/admin.md", () => {
  it("its table names every endpoint and server function, and no other", () => {
    const text = readFileSync(page, "utf8")
    const module = admin({ admins: { userIds: ["x"] } })
    const routes = [...text.matchAll(/^\| `(GET|POST) <basePath>\/(admin\/[a-z-]+)(?:\?[^`]*)?` \|/gm)].map(([, method, path]) => `${method} ${path}`)
    // The pages have a section of their own.
    const pages = ["GET admin/suspended", "GET admin", "GET admin/view", "POST admin/act", "GET admin/acting", "POST admin/acting"]
    expect(routes.sort()).toEqual(Object.keys(module.routes!).filter((route) => !pages.includes(route)).sort())
    for (const route of pages) expect(text).toContain(`<basePath>/${route.split(" ")[1]}`)
    const functions = [...text.matchAll(/^\| [^|]* \| `(\w+)\(/gm)].map(([, fn]) => fn)
    expect(functions.sort()).toEqual(Object.keys(module.api).sort())
  })

  it("runs the example: an admin by role suspends a user, whose JWT session ends and whose sign-in is refused", async () => {
    const { config } = (await load("admin")) as { config: AuthConfig }
    const adapter = config.adapter as MemoryAdapterInstance
    const hash = await argon2id().hash("a long enough passphrase")
    const make = async (email: string, role: string) => {
      const user = await adapter.createUser({ id: crypto.randomUUID(), email, name: null, image: null, emailVerified: new Date(), role } as never)
      await storePassword(adapter, { userId: user.id, hash, updatedAt: new Date() })
      return user
    }
    const boss = await make("boss@example.com", "admin")
    const pat = await make("pat@example.com", "member")
    const signIn = async (email: string) => {
      const jar = new CookieJar()
      const response = await send(config, "/auth/callback/password", { jar, form: { csrfToken: await csrfToken(config, jar), email, password: "a long enough passphrase" } })
      return { jar, location: response.headers.get("location") }
    }
    const admins = await signIn(boss.email)
    const pats = await signIn(pat.email)
    const as = (jar: CookieJar) => new Request("http://localhost:3000/", { headers: { cookie: jar.header() } })
    // A member is no admin, whatever they call.
    await expect(callModuleApi(as(pats.jar), config, "banUser", boss.id)).rejects.toMatchObject({ code: "NotAdmin" })
    await callModuleApi(as(admins.jar), config, "banUser", pat.id, { reason: "spam" })
    expect(await (await send(config, "/auth/session", { jar: pats.jar })).json()).toBeNull()
    expect((await signIn(pat.email)).location).toBe("http://localhost:3000/auth/admin/suspended")
  })
})
