/**
 * Attacks on a plugin's own identity provider (`ModuleRequest.signIn`), as a hostile provider or a
 * hostile page would make them, each beside the flow that must work:
 *
 * - login CSRF by linking: a page makes a signed-in victim's browser post an answer the plugin did
 *   not ask for (`boundToBrowser: false`, an IdP-initiated SAML response); the attacker's account
 *   must never be linked to the victim, while an answer the victim's own browser asked for links;
 * - a hostile provider vouching for another user's address: never a takeover without
 *   `emailVerified`;
 * - a hostile provider (or the plugin's request) naming where to go afterwards: never off the app's
 *   origin, and the recorded destination wins over the posted one;
 * - a provider id of the configuration's own (`github`): refused, nothing stored.
 */
import type { AuthConfig, SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { describe, expect, it } from "vitest"
import { aliceCredentials, CookieJar, origin, recordingLogger, secret, send, signInAlice } from "../helpers.js"

/** A plugin whose "identity provider" posts who it vouches for; `bound` says whether this browser asked. */
const federation: SesameModule = {
  id: "fed",
  routes: {
    "POST fed/acs": {
      csrf: false,
      crossSite: true,
      run: (request) =>
        request.signIn({
          providerId: String(request.body.provider ?? "fed-acme"),
          providerAccountId: String(request.body.sub),
          user: { email: String(request.body.email) },
          profile: { sub: String(request.body.sub) },
          emailVerified: request.body.vouch === "yes",
          boundToBrowser: request.body.bound === "yes",
          ...(typeof request.body.recorded === "string" ? { callbackUrl: request.body.recorded } : {}),
        }),
    },
  },
}

function setup() {
  const adapter = MemoryAdapter()
  const { logger } = recordingLogger()
  const config: AuthConfig = { secret, trustHost: true, adapter, providers: [aliceCredentials({ createUser: true })], plugins: [federation], logger }
  return { adapter, config }
}

/** The provider's form, posted from another site, with whatever cookies the browser has. */
const post = (config: AuthConfig, jar: CookieJar, fields: Record<string, string>) =>
  send(config, "/auth/fed/acs", { jar, form: fields, headers: { origin: "https://idp.example", "sec-fetch-site": "cross-site" } })

describe("a plugin's identity provider, attacked", () => {
  it("never links an answer the browser did not ask for to the signed-in victim; one it asked for links", async () => {
    for (const bound of ["no", "yes"]) {
      const { adapter, config } = setup()
      const victim = new CookieJar()
      await signInAlice(config, victim)
      const alice = await adapter.getUserByEmail!("alice@example.com")
      await post(config, victim, { sub: "mallory", email: "mallory@attacker.example", bound })
      const linked = await adapter.getUserByAccount!({ provider: "fed-acme", providerAccountId: "mallory" })
      if (bound === "no") expect(linked?.id, "the attacker's account is not the victim's").not.toBe(alice!.id)
      else expect(linked?.id, "an answer this browser asked for links to its user").toBe(alice!.id)
    }
  })

  it("never takes over the user of an address the provider does not vouch for", async () => {
    const { adapter, config } = setup()
    const owner = await adapter.createUser!({ id: "owner", email: "ceo@victim.example", emailVerified: new Date(), name: "CEO" })
    const jar = new CookieJar()
    const back = await post(config, jar, { sub: "evil", email: "ceo@victim.example", vouch: "no", bound: "yes" })
    expect(new URL(back.headers.get("location")!).searchParams.get("error")).toBe("OAuthAccountNotLinked")
    expect(await adapter.getUserByAccount!({ provider: "fed-acme", providerAccountId: "evil" })).toBeNull()
    expect((await adapter.getUser!(owner.id))?.email).toBe("ceo@victim.example")
  })

  it("never sends the browser off the app's origin, whatever the answer or the plugin names", async () => {
    const attempts: Record<string, string>[] = [{ callbackUrl: "https://evil.example/" }, { recorded: "https://evil.example/" }, { recorded: "//evil.example/x", callbackUrl: `${origin}/fine` }]
    for (const fields of attempts) {
      const { config } = setup()
      const back = await post(config, new CookieJar(), { sub: "grace", email: "grace@acme.test", vouch: "yes", bound: "yes", ...fields })
      expect(new URL(back.headers.get("location")!).origin, JSON.stringify(fields)).toBe(origin)
    }
  })

  it("refuses a provider id that is not the plugin's own, and stores nothing", async () => {
    const { adapter, config } = setup()
    const back = await post(config, new CookieJar(), { provider: "credentials", sub: "1", email: "alice@example.com", vouch: "yes", bound: "yes" })
    expect(new URL(back.headers.get("location")!).pathname).toBe("/auth/error")
    expect(await adapter.getUserByAccount!({ provider: "credentials", providerAccountId: "1" })).toBeNull()
  })
})
