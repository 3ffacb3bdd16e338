/**
 * The README's examples. The blocks that are files of examples/sveltekit are compared with them
 * (its end-to-end test runs them in Chromium), the guarded action with the test app's (which
 * test/attacks.test.ts attacks); the lazy configuration, which the example does not
 * use, is extracted and run: its `handle` answers the endpoints with the configuration the event
 * carries.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Handle, RequestEvent } from "@sveltejs/kit"
import { StorageUnavailable } from "@sesame/core/errors"
import { describe, expect, it, vi } from "vitest"
import { readmeExample } from "@sesame/testing"

const root = join(import.meta.dirname, "..", "..", "..")
const readmeFile = join(import.meta.dirname, "..", "README.md")
const example = join(root, "examples", "sveltekit", "src")
const scratch = join(import.meta.dirname, ".scratch")


describe("README examples", () => {
  it.each([
    ["auth", "auth.ts"],
    ["hooks", "hooks.server.ts"],
    ["layout", "routes/+layout.server.ts"],
    ["account", "routes/account/+layout.server.ts"],
    ["api", "routes/api/me/+server.ts"],
    ["signin", "routes/signin/+page.server.ts"],
    ["signout", "routes/signout/+page.server.ts"],
  ])("%s is the example app's src/%s, as it is", (name, file) => {
    expect(readmeExample(readmeFile, name)).toBe(readFileSync(join(example, file), "utf8"))
  })

  it("outage-layout is the test app's root layout, which test/outage.test.ts runs during an outage", () => {
    expect(readmeExample(readmeFile, "outage-layout")).toBe(readFileSync(join(import.meta.dirname, "app", "src", "routes", "+layout.server.ts"), "utf8"))
  })

  it("outage-handle-error: keeps a storage outage out of the log, and logs anything else", async () => {
    mkdirSync(scratch, { recursive: true })
    const file = join(scratch, "outage-hooks.ts")
    writeFileSync(file, readmeExample(readmeFile, "outage-handle-error"))
    const { handleError } = (await import(file)) as { handleError: (input: { error: unknown; message: string; status: number; event: RequestEvent }) => { message: string } }
    const event = {} as RequestEvent
    const logged = vi.spyOn(console, "error").mockImplementation(() => {})
    try {
      expect(handleError({ error: new StorageUnavailable(), message: "Internal Error", status: 500, event })).toEqual({ message: "Try again in a moment." })
      expect(logged).not.toHaveBeenCalled()
      const bug = new Error("a bug")
      expect(handleError({ error: bug, message: "Internal Error", status: 500, event })).toEqual({ message: "Internal Error" })
      expect(logged).toHaveBeenCalledWith(bug)
    } finally {
      logged.mockRestore()
    }
  })

  it("actions is the test app's /account action, which test/attacks.test.ts attacks", () => {
    expect(readmeExample(readmeFile, "actions")).toBe(readFileSync(join(import.meta.dirname, "app", "src", "routes", "account", "+page.server.ts"), "utf8"))
  })

  it("lazy: the configuration comes from the event, for every request", async () => {
    mkdirSync(scratch, { recursive: true })
    const file = join(scratch, "lazy-auth.ts")
    writeFileSync(file, readmeExample(readmeFile, "lazy"))
    const { handle } = (await import(file)) as { handle: Handle }
    const url = new URL("http://localhost:3000/auth/providers")
    const platform = { env: { AUTH_SECRET: "readme-secret-0123456789-abcdefghijklmnop", AUTH_GITHUB_ID: "id", AUTH_GITHUB_SECRET: "secret" } }
    const event = { request: new Request(url), url, locals: {}, platform } as unknown as RequestEvent
    const response = await handle({ event, resolve: () => Promise.reject(new Error("the endpoints are the hook's own")) })
    const providers = (await response.json()) as Record<string, { callbackUrl: string }>
    expect(providers.github?.callbackUrl).toBe("http://localhost:3000/auth/callback/github")
    expect(typeof event.locals.auth).toBe("function")
  })
})
