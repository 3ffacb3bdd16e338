import { describe, expect, it } from "vitest"
import { CookieJar, jwtConfig, send, signInAlice } from "./helpers.js"

describe("smoke", () => {
  it("signs in with credentials and reads the session", async () => {
    const config = jwtConfig()
    const jar = new CookieJar()
    const res = await signInAlice(config, jar)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("http://localhost:3000/")
    const session = await send(config, "/auth/session", { jar })
    expect(await session.json()).toMatchObject({ user: { name: "Alice", email: "alice@example.com" } })
  })
})
