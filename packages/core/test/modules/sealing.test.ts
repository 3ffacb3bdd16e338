/**
 * A module's secrets at rest (`context.sealing`): a value sealed by one configuration opens with
 * the same secret, with the newest and older secrets after a rotation (then `rotated`), and never
 * with another secret, for another purpose, or as a session token; the sealed text holds nothing
 * of the value.
 */
import { callModuleApi, type AuthConfig, type ModuleRequest, type SesameModule } from "@sesame/core"
import { describe, expect, it } from "vitest"
import { origin, secret, send } from "../helpers.js"

const keeper: SesameModule = {
  id: "keeper",
  api: {
    seal: (request: ModuleRequest, purpose: string, value: string) => request.sealing.seal(purpose, value),
    open: (request: ModuleRequest, purpose: string, sealed: string) => request.sealing.open(purpose, sealed),
  },
}

const config = (appSecret: string | string[]): AuthConfig => ({ secret: appSecret, trustHost: true, providers: [], plugins: [keeper] })

function call(c: AuthConfig, name: "seal" | "open", ...args: string[]): Promise<any> {
  return callModuleApi(new Request(`${origin}/`), c, name, ...args)
}

const older = "an-older-secret-of-the-app-0123456789abcdefgh"
const newest = "the-newest-secret-of-the-app-0123456789abcdef"
const value = "client-secret-value-4f1d"

describe("a module's sealing", () => {
  it("seals a value that opens with the app's secret, and holds nothing of it in clear", async () => {
    const c = config(secret)
    const sealed: string = await call(c, "seal", "keeper.client-secret", value)
    expect(sealed).not.toContain(value)
    expect(sealed).not.toContain(Buffer.from(value).toString("base64url"))
    expect(sealed.split(".")).toHaveLength(5)
    expect(await call(c, "open", "keeper.client-secret", sealed)).toEqual({ value, rotated: false })
    // Each seal is a new encryption: the same value twice gives two texts.
    expect(await call(c, "seal", "keeper.client-secret", value)).not.toBe(sealed)
  })

  it("after a rotation, opens what the older secret sealed and says so; once the older one is retired, opens nothing", async () => {
    const sealedBefore: string = await call(config(older), "seal", "keeper.client-secret", value)
    const rotated = config([newest, older])
    expect(await call(rotated, "open", "keeper.client-secret", sealedBefore)).toEqual({ value, rotated: true })
    const sealedAgain: string = await call(rotated, "seal", "keeper.client-secret", value)
    expect(await call(config(newest), "open", "keeper.client-secret", sealedAgain)).toEqual({ value, rotated: false })
    expect(await call(config(newest), "open", "keeper.client-secret", sealedBefore)).toBeNull()
  })

  it("does not open a value sealed for another purpose, nor garbage", async () => {
    const c = config(secret)
    const sealed: string = await call(c, "seal", "keeper.client-secret", value)
    expect(await call(c, "open", "keeper.signing-key", sealed)).toBeNull()
    expect(await call(c, "open", "keeper.client-secret", "not-a-sealed-value")).toBeNull()
    expect(await call(c, "open", "keeper.client-secret", `${sealed.slice(0, -4)}AAAA`)).toBeNull()
  })

  it("does not let a sealed value pass for a session token, even under the session cookie's name as its purpose", async () => {
    const c = config(secret)
    // The purpose is salted under the modules' own prefix, so no name reaches the salt of Sesame's cookies.
    const sealed: string = await call(c, "seal", "sesame.session-token", JSON.stringify({ sub: "someone" }))
    const response = await send(c, "/auth/session", { headers: { cookie: `sesame.session-token=${sealed}` } })
    expect(await response.json()).toBeNull()
    await expect(call(c, "seal", "Keeper Secret", value)).rejects.toThrow(/sealing purpose/)
  })
})
