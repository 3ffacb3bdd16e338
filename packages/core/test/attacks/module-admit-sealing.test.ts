/**
 * Attacks on two plugin APIs, each beside the flow that must work:
 *
 * - `ModuleProviders.admit`: is it asked on every path a sign-in through a module's provider takes
 *   (the module's own `request.signIn`, a second factor completing later, linking to whoever is
 *   signed in), and can a provider id the app configured, or another module's, stand in for the
 *   module's own so that its `admit` is skipped?
 * - `context.sealing`: does a value sealed for one purpose open for another, as a session token, or
 *   under another app's secret; does a session token, a tampered value or an unencrypted token open?
 */
import type { AuthConfig, ModuleSignIn, SesameModule } from "@sesame/core"
import { Auth, callModuleApi } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import GitHub from "@sesame/core/providers/github"
import { describe, expect, it } from "vitest"
import { aliceCredentials, CookieJar, frozenClock, origin, recordingLogger, secret, send, signInAlice } from "../helpers.js"
import { ada, app, challengeUrl, enrol, session, submitCode } from "../two-factor/harness.js"

const advance = frozenClock("2026-11-25T10:00:00Z")

/**
 * A federation plugin: its "IdP" posts who it vouches for to `fed/acs`, the plugin signs them in
 * with `request.signIn`; its `admit` records what it is asked and answers `gate()`.
 */
function federation(id = "fed", gate: (signIn: ModuleSignIn) => boolean = () => true, withApi = id !== "fed-x") {
  const asked: ModuleSignIn[] = []
  const module: SesameModule = {
    id,
    providers: {
      find: () => null,
      admit: (signIn) => {
        asked.push(signIn)
        return gate(signIn)
      },
    },
    routes: {
      [`POST ${id}/acs`]: {
        csrf: false,
        crossSite: true,
        run: (request) =>
          request.signIn({
            providerId: String(request.body.provider ?? `${id}-acme`),
            providerAccountId: String(request.body.sub),
            user: { email: String(request.body.email) },
            profile: { sub: String(request.body.sub) },
            emailVerified: request.body.vouch === "yes",
            boundToBrowser: request.body.bound === "yes",
          }),
      },
    },
    api: withApi ? {
      async seal(request, purpose: string, value: string) {
        return request.sealing.seal(purpose, value)
      },
      async open(request, purpose: string, sealed: string) {
        return request.sealing.open(purpose, sealed)
      },
    } : {},
  }
  return { module, asked }
}

/** The IdP's form, posted cross-site with the browser's cookies. */
const post = (config: AuthConfig, jar: CookieJar, fields: Record<string, string>, path = "/auth/fed/acs") =>
  send(config, path, { jar, form: fields, headers: { origin: "https://idp.example", "sec-fetch-site": "cross-site" } })

const errorOf = (response: Response) => new URL(response.headers.get("location") ?? `${origin}/`).searchParams.get("error")

describe("admit on every path of a module's sign-in", () => {
  it("the module's own sign-in (request.signIn): asked before anything is created or linked; a refusal creates nothing, a yes signs in", async () => {
    let open = false
    const { module, asked } = federation("fed", () => open)
    const adapter = MemoryAdapter()
    const config: AuthConfig = { secret, trustHost: true, adapter, providers: [aliceCredentials()], plugins: [module], logger: recordingLogger().logger }
    const refused = await post(config, new CookieJar(), { sub: "grace", email: "grace@acme.test", vouch: "yes", bound: "yes" })
    expect(errorOf(refused)).toBe("AccessDenied")
    expect(await adapter.getUserByEmail("grace@acme.test")).toBeNull()
    expect(await adapter.getUserByAccount({ provider: "fed-acme", providerAccountId: "grace" })).toBeNull()
    open = true
    const jar = new CookieJar()
    await post(config, jar, { sub: "grace", email: "grace@acme.test", vouch: "yes", bound: "yes" })
    expect(((await (await send(config, "/auth/session", { jar })).json()) as { user: { email: string } }).user.email).toBe("grace@acme.test")
    expect(asked.map((a) => a.linked)).toEqual([false, false])
  })

  it("a second factor: admit is asked once, at the first factor, before the account is linked; the challenge's completion links nothing again", async () => {
    let open = true
    const { module, asked } = federation("fed", () => open)
    const a = app({ overrides: { plugins: [module] } })
    const user = await ada(a)
    const { authenticator } = await enrol(a)
    advance(30_000)
    // Refused at the first factor: no challenge, nothing linked.
    open = false
    const refused = await post(a.config, new CookieJar(), { sub: "ada-at-idp", email: "ada@example.com", vouch: "yes", bound: "yes" })
    expect(errorOf(refused)).toBe("AccessDenied")
    expect(refused.headers.get("location")).not.toBe(challengeUrl)
    expect(await a.adapter.getUserByAccount({ provider: "fed-acme", providerAccountId: "ada-at-idp" })).toBeNull()

    open = true
    const jar = new CookieJar()
    const first = await post(a.config, jar, { sub: "ada-at-idp", email: "ada@example.com", vouch: "yes", bound: "yes" })
    expect(first.headers.get("location")).toBe(challengeUrl)
    // Linked by the first factor's decision, which ran after admit said yes.
    expect((await a.adapter.getUserByAccount({ provider: "fed-acme", providerAccountId: "ada-at-idp" }))?.id).toBe(user.id)
    expect(asked.map((s) => s.linked)).toEqual([false, false])

    // NOTE (accepted, not a finding): admit is not asked again when the challenge completes, so a
    // refusal that starts within the pending sign-in's 5 minutes does not stop this one. The
    // second factor is the user's own, which whoever controls the module's IdP does not hold.
    open = false
    const done = await submitCode(a.config, jar, { code: authenticator.code() })
    expect(done.location).toBe(`${origin}/`)
    expect((await session(a.config, jar))?.user?.email).toBe("ada@example.com")
    expect(asked).toHaveLength(2)

    // The account is linked now: the next sign-in is asked about its stored user, and refused
    // before the challenge.
    const later = new CookieJar()
    const again = await post(a.config, later, { sub: "ada-at-idp", email: "ada@example.com", vouch: "yes", bound: "yes" })
    expect(errorOf(again)).toBe("AccessDenied")
    expect(asked.at(-1)).toMatchObject({ linked: true, user: { id: user.id } })
  })

  it("linking to whoever is signed in: admit is asked (linked: false, the provider's person) and its no stops the link", async () => {
    let open = false
    const { module, asked } = federation("fed", () => open)
    const adapter = MemoryAdapter()
    const config: AuthConfig = { secret, trustHost: true, adapter, providers: [aliceCredentials({ createUser: true })], plugins: [module], logger: recordingLogger().logger }
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const alice = await adapter.getUserByEmail("alice@example.com")
    const refused = await post(config, jar, { sub: "alice-at-idp", email: "alice@corp.example", bound: "yes" })
    expect(errorOf(refused)).toBe("AccessDenied")
    expect(await adapter.getUserByAccount({ provider: "fed-acme", providerAccountId: "alice-at-idp" })).toBeNull()
    // NOTE: admit is told the provider's person, not the signed-in user the account will be linked
    // to; a module that needs the target user cannot tell it here (SSO does not: it lets every
    // unlinked sign-in through to the account-linking rules).
    expect(asked[0]).toMatchObject({ linked: false, user: { email: "alice@corp.example" } })
    open = true
    await post(config, jar, { sub: "alice-at-idp", email: "alice@corp.example", bound: "yes" })
    expect((await adapter.getUserByAccount({ provider: "fed-acme", providerAccountId: "alice-at-idp" }))?.id).toBe(alice!.id)
  })
})

describe("provider ids that stand in for the module's own", () => {
  // FINDING (low), fixed: `request.signIn` took any id starting with the plugin's id, one the app
  // configured too (an app with the `sso` plugin and its own provider `sso-okta`): `moduleAdmits`
  // skipped the plugin's `admit` for it, and the sign-in took the configured provider's account
  // and its user. Now a plugin's `signIn` and `signInWith` refuse a configured provider's id.
  it("a configured provider `fed-acme` beside plugin `fed`: the plugin's own sign-in under that id is refused, and takes over no configured account", async () => {
    const { module, asked } = federation("fed", () => false)
    const adapter = MemoryAdapter()
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter,
      providers: [aliceCredentials(), GitHub({ id: "fed-acme", clientId: "gh-client", clientSecret: "gh-secret" } as never)],
      plugins: [module],
      logger: recordingLogger().logger,
    }
    // Alice's GitHub account, linked through the configured provider.
    const alice = await adapter.createUser({ id: crypto.randomUUID(), email: "alice@example.com", name: "Alice", emailVerified: new Date() })
    await adapter.linkAccount({ userId: alice.id, provider: "fed-acme", providerAccountId: "4242", type: "oauth" })
    // Control: the plugin's own provider id is refused by its admit.
    const own = await post(config, new CookieJar(), { provider: "fed-other", sub: "4242", email: "x@acme.test", vouch: "no", bound: "yes" })
    expect(errorOf(own)).toBe("AccessDenied")
    const jar = new CookieJar()
    await post(config, jar, { provider: "fed-acme", sub: "4242", email: "mallory@evil.example", vouch: "no", bound: "yes" })
    const signedIn = ((await (await send(config, "/auth/session", { jar })).json()) as { user?: { email?: string } } | null)?.user?.email ?? null
    expect(signedIn).toBeNull()
    // Refused before any sign-in step: only the control was asked.
    expect(asked).toHaveLength(1)
  })

  // FINDING (low), fixed: a provider id's owner is the module with the longest id prefix, while
  // `request.signIn` and `signInWith` took any id starting with the calling module's id: with
  // plugins `fed` and `fed-x`, `fed` signed in under `fed-x-…`, asked by `fed-x`'s admit instead of
  // its own. Now an id another plugin owns is refused.
  it("two plugins `fed` and `fed-x`: `fed` cannot sign in under `fed-x-acme`, which is `fed-x`'s", async () => {
    const fed = federation("fed", () => false)
    const fedX = federation("fed-x", () => true)
    const adapter = MemoryAdapter()
    const config: AuthConfig = { secret, trustHost: true, adapter, providers: [aliceCredentials()], plugins: [fed.module, fedX.module], logger: recordingLogger().logger }
    const jar = new CookieJar()
    await post(config, jar, { provider: "fed-x-acme", sub: "1", email: "someone@acme.test", vouch: "yes", bound: "yes" })
    expect(await send(config, "/auth/session", { jar }).then((r) => r.json())).toBeNull()
    expect(await adapter.getUserByEmail("someone@acme.test")).toBeNull()
    expect(fedX.asked).toHaveLength(0)
  })
})

describe("context.sealing", () => {
  function vault(secrets: string | string[] = secret) {
    const { module } = federation("vault")
    const config: AuthConfig = { secret: secrets, trustHost: true, adapter: MemoryAdapter(), providers: [aliceCredentials()], plugins: [module], session: { strategy: "jwt" }, logger: recordingLogger().logger }
    const call = (name: string, ...args: unknown[]) => callModuleApi(new Request(`${origin}/app`), config, name, ...args) as Promise<any>
    return { config, seal: (purpose: string, value: string) => call("seal", purpose, value) as Promise<string>, open: (purpose: string, sealed: string) => call("open", purpose, sealed) as Promise<{ value: string; rotated: boolean } | null> }
  }

  it("opens what it sealed for that purpose only; a value never shows in its sealed form", async () => {
    const v = vault()
    const sealed = await v.seal("vault.client-secret", "s3cret-value-0123456789")
    expect(sealed).not.toContain("s3cret")
    expect(Buffer.from(sealed.split(".")[0]!, "base64url").toString()).not.toContain("s3cret")
    expect(await v.open("vault.client-secret", sealed)).toEqual({ value: "s3cret-value-0123456789", rotated: false })
    for (const purpose of ["vault.client-secre", "vault.client-secret-2", "sso.client-secret", "vault"]) {
      expect(await v.open(purpose, sealed), purpose).toBeNull()
    }
    // Two seals of one value differ (a fresh IV each): the sealed form says nothing of equality.
    expect(await v.seal("vault.client-secret", "s3cret-value-0123456789")).not.toBe(sealed)
  })

  it("refuses a purpose that could step out of `sesame.module.` (as a salt another JWE of the app uses), and anything but a string", async () => {
    const v = vault()
    for (const purpose of ["", "Vault", "../x", " vault.x", "sesame/../x", "a".repeat(81), "x\u0000y"]) {
      await expect(v.seal(purpose, "v"), JSON.stringify(purpose)).rejects.toThrow(TypeError)
    }
    await expect(v.seal("vault.x", 42 as never)).rejects.toThrow(TypeError)
    expect(await v.open("vault.x", "")).toBeNull()
    expect(await v.open("vault.x", 42 as never)).toBeNull()
  })

  it("a session token never opens as a sealed value, and a sealed value is no session token", async () => {
    const v = vault()
    const jar = new CookieJar()
    await signInAlice(v.config, jar)
    const token = jar.get("sesame.session-token")!
    expect(token).toBeTruthy()
    for (const purpose of ["session-token", "vault.x", "sesame.session-token"]) {
      expect(await v.open(purpose, token), purpose).toBeNull()
    }
    const sealed = await v.seal("session-token", JSON.stringify({ sub: "1", email: "alice@example.com" }))
    const forged = await Auth(new Request(`${origin}/auth/session`, { headers: { cookie: `sesame.session-token=${sealed}` } }), v.config)
    expect(await forged.json()).toBeNull()
  })

  it("a tampered value, an unencrypted JWT, another app's sealed value: null; a rotation opens with the older secret and says so", async () => {
    const v = vault()
    const sealed = await v.seal("vault.x", "value")
    const parts = sealed.split(".")
    const flipped = (s: string) => s.slice(0, -2) + (s.at(-2) === "A" ? "B" : "A") + s.at(-1)
    for (const index of [0, 1, 2, 3, 4]) {
      const changed = parts.map((p, i) => (i === index && p.length > 2 ? flipped(p) : p)).join(".")
      if (changed !== sealed) expect(await v.open("vault.x", changed), `part ${index}`).toBeNull()
    }
    const none = `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${Buffer.from(JSON.stringify({ value: "mine" })).toString("base64url")}.`
    expect(await v.open("vault.x", none)).toBeNull()
    const other = vault("another-apps-secret-0123456789abcdefghijklmnop")
    expect(await other.open("vault.x", sealed)).toBeNull()
    const rotated = vault(["the-newest-secret-0123456789abcdefghijklmnop", secret])
    expect(await rotated.open("vault.x", sealed)).toEqual({ value: "value", rotated: true })
    expect(await rotated.open("vault.x", await rotated.seal("vault.x", "value"))).toEqual({ value: "value", rotated: false })
  })

  it("NOTE (not a finding): a sealed value is bound to its purpose and the app's secret only, not to the record it was stored in; any plugin may open any purpose", async () => {
    // Whoever can write the database can copy one record's sealed value into another's, and a
    // plugin (trusted code) can open another plugin's purpose: the seal protects a copy of the
    // database, as documented, nothing more.
    const v = vault()
    const sealed = await v.seal("vault.record-a", "value")
    expect(await v.open("vault.record-a", sealed)).toEqual({ value: "value", rotated: false })
    const { module } = federation("other")
    const config: AuthConfig = { secret, trustHost: true, adapter: MemoryAdapter(), providers: [aliceCredentials()], plugins: [module], logger: recordingLogger().logger }
    expect(await callModuleApi(new Request(`${origin}/app`), config, "open", "vault.record-a", sealed)).toEqual({ value: "value", rotated: false })
  })
})
