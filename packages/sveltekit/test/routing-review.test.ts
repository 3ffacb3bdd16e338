/**
 * Routing review: `authorize({ protect })` decides from `event.url.pathname`. For a remote function
 * call (`/_app/remote/<id>`), SvelteKit sets that path from the client's `x-sveltekit-pathname`
 * header (node_modules/@sveltejs/kit/src/runtime/server/respond.js:127-129), so the caller picks the
 * path the guard checked: the same remote call was refused as `/admin` and let through as `/about`.
 * The guard now judges a remote call by its own path, whatever the header says.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { startApp, type Send } from "./kit.js"

let send: Send
beforeAll(async () => {
  send = await startApp()
}, 180_000)

describe("authorize and remote function calls", () => {
  it("legitimate flow: a signed-out visit of /admin is sent to sign in", async () => {
    const page = await send("/admin")
    expect(page.status).toBe(303)
  })

  it("fails: the guard's answer to one remote call does not depend on the x-sveltekit-pathname the caller sends", async () => {
    const remote = "/_app/remote/0123abcd/listUsers"
    // The guard judges the call by its own path, not by the page the caller names: whatever the
    // header says, the same answer (here SvelteKit's remote handler's, the id being made up).
    // Before the fix, the call named /admin was refused and the same call named /about let through.
    const fromAdmin = await send(remote, { headers: { "x-sveltekit-pathname": "/admin" } })
    expect(fromAdmin.headers.get("location") ?? "").not.toContain("callbackUrl=%2Fadmin")
    const forged = await send(remote, { headers: { "x-sveltekit-pathname": "/about" } })
    expect(forged.status).toBe(fromAdmin.status)
  })
})
