/**
 * An OpenID Connect connection's client secret at rest: sealed under the app's secret, so the
 * stored row (what a stolen backup holds) does not carry it; a rotation of the app's secret keeps
 * the connection working and seals it again with the newest; a secret no longer among the app's
 * leaves the connection unusable with an error in the log, never a sign-in with a wrong secret.
 */
import type { DevIdp } from "@sesame/dev-idp"
import { MemoryAdapter } from "@sesame/core/adapters"
import { afterEach, describe, expect, it } from "vitest"
import { connectionModel } from "../src/models.js"
import { secret } from "../../organizations/test/world.js"
import { clientSecret, oidcConnection, origin, proveDomain, ssoWorld, throughIdp, type World } from "./world.js"

let idps: DevIdp[] = []
afterEach(async () => {
  await Promise.all(idps.map((idp) => idp.close()))
  idps = []
})

const newest = "the-newest-secret-of-the-app-0123456789abcdef"

/** Acme with acme.test proven and an OIDC connection, on `adapter`. */
async function acme(w: World) {
  const ada = await w.user("ada@example.com")
  const org = await w.organization(ada, "Acme")
  await proveDomain(w, org.id, "acme.test")
  const { connection, idp } = await oidcConnection(ada, org.id)
  idps.push(idp)
  return { connection }
}

async function signInGrace(w: World): Promise<Response> {
  const grace = new w.Browser()
  const started = await grace.send("sso/start", { json: { csrfToken: await grace.csrf(), email: "grace@acme.test", callbackUrl: `${origin}/dashboard` } })
  // Sent to the IdP: back through it; else the app's own answer (its error page).
  return started.headers.get("location")?.startsWith(origin) ? started : throughIdp(grace, started)
}

const storedSecret = async (w: World, id: string) => ((await w.adapter.store!.findOne(connectionModel, { id }))!.settings as { clientSecret: string }).clientSecret

describe("a connection's client secret", () => {
  it("is stored sealed: the row holds nothing of it, and the sign-in still uses it", async () => {
    const w = ssoWorld()
    const { connection } = await acme(w)
    const row = await w.adapter.store!.findOne(connectionModel, { id: connection.id })
    expect(JSON.stringify(row)).not.toContain(clientSecret)
    expect(JSON.stringify(row)).not.toContain(Buffer.from(clientSecret).toString("base64url"))
    const back = await signInGrace(w)
    expect(back.headers.get("location")).toBe(`${origin}/dashboard`)
  })

  it("keeps working through a rotation of the app's secret, and is sealed again with the newest", async () => {
    const adapter = MemoryAdapter()
    const before = ssoWorld({ allowPrivateNetworks: true }, { adapter })
    const { connection } = await acme(before)
    const sealedBefore = await storedSecret(before, connection.id)

    const rotated = ssoWorld({ allowPrivateNetworks: true }, { adapter, secret: [newest, secret] })
    expect((await signInGrace(rotated)).headers.get("location")).toBe(`${origin}/dashboard`)
    const sealedAfter = await storedSecret(rotated, connection.id)
    expect(sealedAfter).not.toBe(sealedBefore)

    // The older secret retired: the connection still signs in, with what the rotation sealed.
    const retired = ssoWorld({ allowPrivateNetworks: true }, { adapter, secret: newest })
    expect((await signInGrace(retired)).headers.get("location")).toBe(`${origin}/dashboard`)
  })

  it("sealed with a secret the app no longer has: no sign-in, and the log says to enter it again", async () => {
    const adapter = MemoryAdapter()
    const { connection } = await acme(ssoWorld({ allowPrivateNetworks: true }, { adapter }))
    const errors: Error[] = []
    const w = ssoWorld({ allowPrivateNetworks: true }, { adapter, secret: newest, logError: (error) => void errors.push(error) })
    const back = await signInGrace(w)
    expect(back.status).toBe(302)
    expect(new URL(back.headers.get("location")!).searchParams.get("error")).toBeTruthy()
    expect(errors.map((e) => e.message).join("\n")).toContain(`client secret of connection ${connection.id} does not open`)
    const grace = await w.adapter.getUserByEmail!("grace@acme.test")
    expect(grace).toBeNull()
  })
})
