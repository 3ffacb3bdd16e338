/**
 * Acting sessions (`session/acting.ts`): a module's session on someone's behalf, which the core
 * holds to its rules whatever the app does. Here a bare module starts one from its endpoint; the
 * admin plugin's impersonation (`packages/admin`) is the full flow. What must not work: an app's
 * `jwt` callback that builds a fresh token dropping the mark; a native app code or a fresh sign-in
 * from inside it; acting from a server function, or without a part the module recognises; a module
 * that declares `acting` without keeping parts; and, with the module's own check (`actingHolds`),
 * a session it no longer vouches for, or whose check fails.
 */
import { callModuleApi, deleteUser } from "@sesame/core"
import { describe, expect, it } from "vitest"
import { csrfToken, request, send } from "../helpers.js"
import { actingApp as app, actor, postJson as post, signInAs as signIn, who } from "./acting-app.js"

describe("acting sessions", () => {
  it("keep their mark when the app's jwt callback builds a fresh token", async () => {
    // An app callback that copies only the claims it knows: the module's claim would be lost.
    const config = app("jwt", { callbacks: { jwt: ({ token }) => ({ sub: token.sub, email: token.email, name: token.name }) } })
    const jar = await signIn(config, "alice@example.com")
    expect(await post(config, jar, "/auth/act/start")).toEqual({ started: true })
    const session = (await (await send(config, "/auth/session", { jar })).json()) as { user: { email: string }; act?: { by: string } }
    expect(session.user.email).toBe("bob@example.com")
    expect(session.act?.by).toBe("alice")
    // Still acting, so never a recent sign-in: nothing sensitive, such as deleting the account.
    expect(await deleteUser(request("/", { jar }), config)).toEqual({ deleted: false, reason: "SignInTooOld" })
  })

  for (const strategy of ["jwt", "database"] as const) {
    it(`(${strategy}) keep their mark when the module's own \`session\` drops or changes it at a re-issue`, async () => {
      // A careless module: every later answer loses the mark, or names another actor.
      for (const answer of [undefined, { by: "bob", until: Date.now() + 1000 }]) {
        const config = app(strategy, { plugins: [{ ...actor(), session: ({ previous }) => (previous === undefined ? undefined : answer) }], session: { strategy, updateAge: 0, ...(strategy === "jwt" ? { revocation: { cache: 0 } } : {}) } })
        const jar = await signIn(config, "alice@example.com")
        expect(await post(config, jar, "/auth/act/start")).toEqual({ started: true })
        for (let read = 0; read < 2; read++) {
          const session = (await (await send(config, "/auth/session", { jar })).json()) as { user: { email: string }; act?: { by: string } }
          expect(session.user.email).toBe("bob@example.com")
          expect(session.act?.by).toBe("alice")
        }
        // Still the acting session: never recent, and the way back is still Alice's.
        expect(await deleteUser(request("/", { jar }), config)).toEqual({ deleted: false, reason: "SignInTooOld" })
        expect(await post(config, jar, "/auth/act/stop")).toEqual({ restored: true })
        expect(await who(config, jar)).toBe("alice@example.com")
      }
    })

    it(`(${strategy}) come back to the actor's own session`, async () => {
      const config = app(strategy)
      const jar = await signIn(config, "alice@example.com")
      expect(await post(config, jar, "/auth/act/start")).toEqual({ started: true })
      expect(await who(config, jar)).toBe("bob@example.com")
      expect(await post(config, jar, "/auth/act/stop")).toEqual({ restored: true })
      expect(await who(config, jar)).toBe("alice@example.com")
    })
  }

  it("give a native app no code of the user's own", async () => {
    const config = app("database", { nativeApps: { redirectUris: ["com.example.app:/cb"] } })
    const jar = await signIn(config, "alice@example.com")
    await post(config, jar, "/auth/act/start")
    const path = `/auth/native/authorize?${new URLSearchParams({ redirect_uri: "com.example.app:/cb", code_challenge: "x".repeat(43), code_challenge_method: "S256", state: "s" })}`
    // Treated as signed out: the browser is sent to sign in, and a confirmation is refused.
    const page = await send(config, path, { jar })
    expect(page.status).toBe(302)
    expect(page.headers.get("location")).toContain("/auth/signin")
    const confirm = await send(config, path, { jar, form: { csrfToken: await csrfToken(config, jar) } })
    expect(confirm.headers.get("location") ?? "").not.toContain("code=")
  })

  it("start only from an endpoint, with a part the module recognises, from the actor's own session", async () => {
    const config = app("jwt")
    const jar = await signIn(config, "alice@example.com")
    await expect(callModuleApi(request("/", { jar }), config, "startFromServer")).rejects.toThrow(/endpoints/)
    // Acting again from inside an acting session is refused.
    await post(config, jar, "/auth/act/start")
    expect(await post(config, jar, "/auth/act/start")).toEqual({ started: false })
  })

  it("need a module that keeps parts", async () => {
    const config = app("jwt", { plugins: [{ ...actor(), keepsSessionPart: false }] })
    expect((await send(config, "/auth/session")).status).toBe(500)
  })

  it("tell the built-in pages to show a banner", async () => {
    const config = app("jwt")
    const jar = await signIn(config, "alice@example.com")
    await post(config, jar, "/auth/act/start")
    const page = await (await send(config, "/auth/signout", { jar })).text()
    expect(page).toContain('<p class="acting" role="status">You are seeing the app as bob@example.com, on behalf of alice@example.com')
    const plain = await (await send(config, "/auth/signout", { jar: await signIn(config, "alice@example.com") })).text()
    expect(plain).not.toContain('class="acting"')
  })
})

describe("a module's word on its acting sessions (`actingHolds`)", () => {
  for (const strategy of ["jwt", "database"] as const) {
    it(`(${strategy}) ends one at its next use once the module no longer vouches for it, and is never asked of another session`, async () => {
      let holds = true
      const asked: unknown[] = []
      const module = actor()
      const config = app(strategy, {
        plugins: [{ ...module, actingHolds: (part) => (asked.push(part), holds), api: { ...module.api, me: async (req) => (await req.user())?.email ?? null } }],
      })
      const jar = await signIn(config, "alice@example.com")
      expect(await who(config, jar)).toBe("alice@example.com")
      expect(asked).toEqual([])
      await post(config, jar, "/auth/act/start")
      expect(await who(config, jar)).toBe("bob@example.com")
      expect(asked[0]).toMatchObject({ by: "alice" })
      holds = false
      // Any use, not only a read of the session: here a module's `request.user()`.
      expect(await callModuleApi(request("/", { jar }), config, "me")).toBeNull()
      expect(await who(config, jar)).toBeNull()
      expect(jar.get("sesame.session-token")).toBeUndefined()
      // The actor's own session was not ended: the way back still opens.
      expect(await post(config, jar, "/auth/act/stop")).toEqual({ restored: true })
      expect(await who(config, jar)).toBe("alice@example.com")
    })
  }

  it("ends one whose check throws, and logs why: a session no one vouches for is not kept", async () => {
    const errors: Error[] = []
    const config = app("jwt", {
      plugins: [{ ...actor(), actingHolds: () => Promise.reject(new Error("bug")) }],
      logger: { error: (error) => void errors.push(error), warn: () => {}, debug: () => {} },
    })
    const jar = await signIn(config, "alice@example.com")
    expect(await post(config, jar, "/auth/act/start")).toEqual({ started: true })
    expect(await who(config, jar)).toBeNull()
    expect(errors.map((error) => error.name)).toContain("EventError")
  })

  it("needs `acting`", async () => {
    const config = app("jwt", { plugins: [{ id: "odd", actingHolds: () => true }] })
    expect((await send(config, "/auth/session")).status).toBe(500)
  })
})
