/**
 * One suite for every Auth.js adapter on every database: a subject (subjects.ts) is handed to
 * Sesame's `Auth()` unchanged, with an email provider, two OpenID Connect providers on a real
 * identity provider (@sesame/dev-idp; `trusted` has `allowDangerousEmailAccountLinking`), a
 * credentials provider and, when the adapter implements Auth.js's authenticator methods, passkeys.
 * Each flow runs with both session strategies; what it wrote is read back with the raw driver
 * (store.ts), never through the adapter.
 *
 * The tables are emptied before each test; the database place, the adapter and the identity
 * provider are shared by the tests of a file.
 */
import { createHash } from "node:crypto"
import type { AuthConfig } from "@sesame/core"
import Credentials from "@sesame/core/providers/credentials"
import Passkey from "@sesame/core/providers/passkey"
import type { DevIdp } from "@sesame/dev-idp"
import { SoftAuthenticator } from "@sesame/testing"
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { CookieJar, csrfToken, home, secret, send } from "../../core/test/helpers.js"
import { followLink, lastLink, recordingEmail, requestLink } from "../../core/test/email/helpers.js"
import { client, expectRejected, oidc, quietLogger, session, signIn as oidcSignIn, startIdp } from "../../core/test/oauth/harness.js"
import { authenticate, register } from "../../core/test/webauthn/harness.js"
import type { Subject, SubjectSpec } from "./subjects.js"

/** The identity provider's people. `unsure-bob` claims Bob's address without vouching for it. */
const idpAccounts = [
  { id: "alice", email: "alice@example.com", name: "Alice Liddell" },
  { id: "bob", email: "bob@example.com", name: "Bob Builder" },
  { id: "unsure-bob", email: "bob@example.com", name: "Not Bob", email_verified: false },
]
const as = (id: string) => ({ query: { login_hint: id } })
const sessionCookie = "sesame.session-token"
const password = "open sesame"

/** SHA-256 (hex) of a session cookie's token: what Sesame stores in place of the token. */
const sha256 = (value: string) => createHash("sha256").update(value).digest("hex")

/** The suite, on the adapter and database `spec` opens. */
export function authjsAdapterSuite(spec: SubjectSpec): void {
  describe(spec.name, () => {
    let subject: Subject
    let idp: DevIdp

    beforeAll(async () => {
      ;[subject, idp] = await Promise.all([spec.open(), startIdp({ clients: [client("dev"), client("trusted")], accounts: idpAccounts })])
    })
    afterAll(async () => {
      await Promise.all([subject?.close(), idp?.close()])
    })
    beforeEach(async () => {
      await subject.store.clear()
    })

    describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
      function setup() {
        const mail = recordingEmail()
        const { errors: logged, logger } = quietLogger()
        const { store } = subject
        const credentials = Credentials({
          credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
          async authorize(fields) {
            if (fields.password !== password) return null
            const email = String(fields.email)
            // With JWT sessions nothing is stored: the app's word is the user. With database
            // sessions the app finds the user in its own table, as an app using this adapter would.
            if (strategy === "jwt") return { id: "carol-1", name: "Carol", email }
            const user = (await store.users()).find((u) => u.email === email)
            return user ? { id: user.id, name: user.name, email: user.email } : null
          },
        })
        const config: AuthConfig = {
          secret,
          trustHost: true,
          // Auth.js's adapter, exactly as its package made it.
          adapter: subject.adapter,
          session: { strategy },
          logger,
          providers: [
            mail.provider,
            oidc(idp),
            oidc(idp, { id: "trusted", name: "Trusted IdP", clientId: "trusted", allowDangerousEmailAccountLinking: true }),
            credentials,
            ...(spec.passkeys ? [Passkey()] : []),
          ],
          ...(spec.passkeys ? { experimental: { enableWebAuthn: true } } : {}),
        }
        /** What the logger received as errors (flows expected to fail are checked by their answers instead). */
        const errors = () => logged.map((error) => `${error.name}: ${error.message}`)
        return { config, sent: mail.sent, errors }
      }

      /** Signs `email` in by email link in `jar`; returns the callback's answer. */
      async function emailSignIn(config: AuthConfig, sent: Parameters<typeof lastLink>[0], jar: CookieJar, email: string) {
        const asked = await requestLink(config, jar, email)
        expect(asked.status).toBe(302)
        expect(asked.headers.get("location")).toMatch(/\/auth\/verify-request/)
        return followLink(config, jar, lastLink(sent))
      }

      async function userByEmail(email: string) {
        return (await subject.store.users()).find((u) => u.email === email)
      }

      /** What the store says about the session of `jar`: one row for its token's hash (database), none (JWT). */
      async function expectStoredSession(jar: CookieJar, userId: string) {
        const token = jar.get(sessionCookie)
        expect(token).toBeTruthy()
        const rows = await subject.store.sessions()
        if (strategy === "jwt") {
          expect(rows).toEqual([])
          return
        }
        const row = rows.find((r) => r.sessionToken === sha256(token!))
        expect(row, "a session row under the hash of the cookie's token").toBeDefined()
        expect(row!.userId).toBe(userId)
        expect(rows.some((r) => r.sessionToken === token)).toBe(false)
        expect(row!.expires.getTime()).toBeGreaterThan(Date.now())
      }

      it("GET providers, csrf, session and the built-in pages answer their status (200; 403 for error=Verification), never 500", async () => {
        const { config, errors } = setup()
        const jar = new CookieJar()
        const providers = await send(config, "/auth/providers", { jar })
        expect(providers.status).toBe(200)
        const ids = Object.keys((await providers.json()) as Record<string, unknown>)
        expect(ids).toEqual(["email", "dev", "trusted", "credentials", ...(spec.passkeys ? ["passkey"] : [])])
        const csrf = await send(config, "/auth/csrf", { jar })
        expect(csrf.status).toBe(200)
        expect(((await csrf.json()) as { csrfToken: string }).csrfToken).toMatch(/^[0-9a-f]{64}$/)
        const none = await send(config, "/auth/session", { jar })
        expect(none.status).toBe(200)
        expect(await none.json()).toBeNull()
        const pages = { signin: 200, signout: 200, error: 200, "error?error=Verification": 403, "verify-request": 200 }
        for (const [page, status] of Object.entries(pages)) {
          const answer = await send(config, `/auth/${page}`, { jar })
          expect(answer.status, page).toBe(status)
          expect(answer.headers.get("content-type"), page).toMatch(/^text\/html/)
        }
        expect(errors()).toEqual([])
      })

      it("email link: a new address becomes a verified user, the token is stored hashed and gone once used; the address signs in again as that user", async () => {
        const { config, sent, errors } = setup()
        const jar = new CookieJar()
        expect((await requestLink(config, jar, "alice@example.com")).status).toBe(302)
        const link = new URL(lastLink(sent))
        const [stored] = await subject.store.verificationTokens()
        expect(stored).toMatchObject({ identifier: "alice@example.com" })
        expect(stored!.token).not.toBe(link.searchParams.get("token"))
        expect(stored!.expires.getTime()).toBeGreaterThan(Date.now())

        const done = await followLink(config, jar, link.href)
        expect(done.status).toBe(302)
        expect(done.headers.get("location")).toBe(home)
        expect(await subject.store.verificationTokens()).toEqual([])
        const users = await subject.store.users()
        expect(users).toHaveLength(1)
        expect(users[0]).toMatchObject({ email: "alice@example.com" })
        expect(users[0]!.emailVerified).toBeInstanceOf(Date)
        expect((await session(config, jar))?.user).toMatchObject({ email: "alice@example.com" })
        await expectStoredSession(jar, users[0]!.id)

        // The same address again, in another browser: the same user.
        const again = new CookieJar()
        expect((await emailSignIn(config, sent, again, "alice@example.com")).headers.get("location")).toBe(home)
        expect((await session(config, again))?.user).toMatchObject({ email: "alice@example.com" })
        expect((await subject.store.users()).map((u) => u.id)).toEqual([users[0]!.id])
        expect(errors()).toEqual([])
      })

      it("OIDC through the identity provider: a new account makes a verified user with the account linked; the returning account signs the same user in", async () => {
        const { config, errors } = setup()
        const jar = new CookieJar()
        const callback = await oidcSignIn(config, jar, "dev")
        expect(callback.status).toBe(302)
        expect(callback.headers.get("location")).toBe(home)
        expect((await session(config, jar))?.user).toMatchObject({ email: "alice@example.com", name: "Alice Liddell" })
        const [user, ...others] = await subject.store.users()
        expect(others).toEqual([])
        expect(user).toMatchObject({ email: "alice@example.com", name: "Alice Liddell" })
        // The provider vouches for the address (email_verified).
        expect(user!.emailVerified).toBeInstanceOf(Date)
        const accounts = await subject.store.accounts()
        expect(accounts).toEqual([{ userId: user!.id, type: "oidc", provider: "dev", providerAccountId: "alice", access_token: expect.any(String) }])
        await expectStoredSession(jar, user!.id)

        const again = new CookieJar()
        expect((await oidcSignIn(config, again, "dev")).headers.get("location")).toBe(home)
        expect((await session(config, again))?.user).toMatchObject({ email: "alice@example.com" })
        expect((await subject.store.users()).map((u) => u.id)).toEqual([user!.id])
        expect(await subject.store.accounts()).toHaveLength(1)
        expect(errors()).toEqual([])
      })

      it("credentials: the user authorize returns is signed in; a wrong password is CredentialsSignin", async () => {
        const { config, sent, errors } = setup()
        let userId = "carol-1"
        if (strategy === "database") {
          // The user must be one the adapter knows: Carol signs up by email link first.
          await emailSignIn(config, sent, new CookieJar(), "carol@example.com")
          userId = (await userByEmail("carol@example.com"))!.id
        }
        const before = await subject.store.users()
        const jar = new CookieJar()
        const post = async (pass: string) =>
          send(config, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfToken(config, jar), email: "carol@example.com", password: pass } })

        const wrong = await post("guess")
        expect(wrong.status).toBe(302)
        expect(new URL(wrong.headers.get("location")!).searchParams.get("error")).toBe("CredentialsSignin")
        expect(jar.get(sessionCookie)).toBeUndefined()

        const right = await post(password)
        expect(right.status).toBe(302)
        expect(right.headers.get("location")).toBe(home)
        expect((await session(config, jar))?.user).toMatchObject({ email: "carol@example.com" })
        await expectStoredSession(jar, userId)
        // Credentials create no user: the table is as it was.
        expect(await subject.store.users()).toEqual(before)
        // The refusal, and nothing else.
        expect(errors()).toEqual([expect.stringMatching(/^CredentialsSignin: /)])
      })

      it("sign-out ends the session: no session, the cookie cleared, the row deleted", async () => {
        const { config, errors } = setup()
        const jar = new CookieJar()
        await oidcSignIn(config, jar, "dev")
        expect(await session(config, jar)).not.toBeNull()
        const token = await csrfToken(config, jar)
        const out = await send(config, "/auth/signout", { jar, form: { csrfToken: token } })
        expect(out.status).toBe(302)
        expect(out.headers.get("location")).toBe(home)
        expect(jar.get(sessionCookie)).toBeUndefined()
        expect(await session(config, jar)).toBeNull()
        expect(await subject.store.sessions()).toEqual([])
        // The user and the account stay.
        expect(await subject.store.users()).toHaveLength(1)
        expect(await subject.store.accounts()).toHaveLength(1)
        expect(errors()).toEqual([])
      })

      it("OAuthAccountNotLinked: an OIDC account whose address belongs to a user who signed up by email link is refused, and nothing changes", async () => {
        const { config, sent, errors } = setup()
        await emailSignIn(config, sent, new CookieJar(), "bob@example.com")
        const before = await subject.store.users()
        expect(before).toHaveLength(1)

        // `dev` has no allowDangerousEmailAccountLinking: refused although the IdP vouches.
        const jar = new CookieJar()
        await expectRejected(config, jar, await oidcSignIn(config, jar, "dev", as("bob")), "OAuthAccountNotLinked")
        // `trusted` has it, but this IdP account does not vouch for the address: refused too.
        const other = new CookieJar()
        await expectRejected(config, other, await oidcSignIn(config, other, "trusted", as("unsure-bob")), "OAuthAccountNotLinked")

        expect(await subject.store.accounts()).toEqual([])
        expect(await subject.store.users()).toEqual(before)
        expect(await subject.store.sessions()).toHaveLength(strategy === "database" ? 1 : 0)
        // Refusals, not failures of the adapter.
        expect(errors().filter((line) => !line.startsWith("OAuthAccountNotLinked: "))).toEqual([])
      })

      it("allowDangerousEmailAccountLinking links the account to the email-link user when the IdP vouches for the address", async () => {
        const { config, sent, errors } = setup()
        await emailSignIn(config, sent, new CookieJar(), "bob@example.com")
        const [bob] = await subject.store.users()

        const jar = new CookieJar()
        const callback = await oidcSignIn(config, jar, "trusted", as("bob"))
        expect(callback.headers.get("location")).toBe(home)
        expect((await session(config, jar))?.user).toMatchObject({ email: "bob@example.com" })
        expect((await subject.store.users()).map((u) => u.id)).toEqual([bob!.id])
        expect(await subject.store.accounts()).toEqual([{ userId: bob!.id, type: "oidc", provider: "trusted", providerAccountId: "bob", access_token: expect.any(String) }])
        await expectStoredSession(jar, bob!.id)

        // Both ways in keep working.
        const byLink = new CookieJar()
        await emailSignIn(config, sent, byLink, "bob@example.com")
        expect((await session(config, byLink))?.user).toMatchObject({ email: "bob@example.com" })
        const byIdp = new CookieJar()
        await oidcSignIn(config, byIdp, "trusted", as("bob"))
        expect((await session(config, byIdp))?.user).toMatchObject({ email: "bob@example.com" })
        expect((await subject.store.users()).map((u) => u.id)).toEqual([bob!.id])
        expect(errors()).toEqual([])
      })

      if (strategy === "database") {
        it("an expired session row is no session: the cookie is cleared and the row removed", async () => {
          const { config, sent, errors } = setup()
          const jar = new CookieJar()
          await emailSignIn(config, sent, jar, "alice@example.com")
          expect(await session(config, jar)).not.toBeNull()
          await subject.store.expireSessions()
          const answer = await send(config, "/auth/session", { jar })
          expect(answer.status).toBe(200)
          expect(await answer.json()).toBeNull()
          expect(jar.get(sessionCookie)).toBeUndefined()
          expect(await subject.store.sessions()).toEqual([])
          expect(errors()).toEqual([])
        })
      } else {
        it("a JWT session past its maxAge is no session", async () => {
          const { config, sent, errors } = setup()
          const jar = new CookieJar()
          await emailSignIn(config, sent, jar, "alice@example.com")
          expect(await session(config, jar)).not.toBeNull()
          vi.useFakeTimers({ toFake: ["Date"] })
          try {
            vi.setSystemTime(Date.now() + 31 * 24 * 3600 * 1000)
            expect(await session(config, jar)).toBeNull()
          } finally {
            vi.useRealTimers()
          }
          expect(errors()).toEqual([])
        })
      }

      describe.runIf(spec.passkeys)("passkeys (Auth.js's authenticator methods)", () => {
        it("a signed-in user adds a passkey, signs out and signs in with it", async () => {
          const { config, sent, errors } = setup()
          const jar = new CookieJar()
          await emailSignIn(config, sent, jar, "alice@example.com")
          const alice = (await userByEmail("alice@example.com"))!
          const key = new SoftAuthenticator()
          const { response, data } = await register(config, jar, key)
          expect(response.status).toBe(302)
          const credentialID = Buffer.from(data.id, "base64url").toString("base64")
          expect(await subject.store.authenticators()).toEqual([{ credentialID, userId: alice.id, providerAccountId: credentialID, counter: 0 }])
          expect(await subject.store.accounts()).toEqual([{ userId: alice.id, type: "webauthn", provider: "passkey", providerAccountId: credentialID, access_token: null }])

          const token = await csrfToken(config, jar)
          await send(config, "/auth/signout", { jar, form: { csrfToken: token } })
          expect(await session(config, jar)).toBeNull()

          const signedIn = await authenticate(config, jar, key)
          expect(signedIn.response.status).toBe(302)
          expect(signedIn.response.headers.get("location")).toBe(home)
          expect((await session(config, jar))?.user).toMatchObject({ email: "alice@example.com" })
          await expectStoredSession(jar, alice.id)
          const [stored] = await subject.store.authenticators()
          expect(stored!.counter).toBeGreaterThan(0)
          expect(errors()).toEqual([])
        })

        it("a new address signs up with a passkey (a user, its webauthn account, its authenticator), signs out and signs in with it", async () => {
          const { config, errors } = setup()
          const jar = new CookieJar()
          const key = new SoftAuthenticator()
          const { response, data } = await register(config, jar, key, "dave@example.com")
          expect(response.status).toBe(302)
          expect((await session(config, jar))?.user).toMatchObject({ email: "dave@example.com" })
          const dave = (await userByEmail("dave@example.com"))!
          const credentialID = Buffer.from(data.id, "base64url").toString("base64")
          expect(await subject.store.authenticators()).toEqual([{ credentialID, userId: dave.id, providerAccountId: credentialID, counter: 0 }])
          expect(await subject.store.accounts()).toEqual([{ userId: dave.id, type: "webauthn", provider: "passkey", providerAccountId: credentialID, access_token: null }])
          await expectStoredSession(jar, dave.id)

          await send(config, "/auth/signout", { jar, form: { csrfToken: await csrfToken(config, jar) } })
          expect(await session(config, jar)).toBeNull()
          const signedIn = await authenticate(config, jar, key)
          expect(signedIn.response.status).toBe(302)
          expect(signedIn.response.headers.get("location")).toBe(home)
          expect((await session(config, jar))?.user).toMatchObject({ email: "dave@example.com" })
          await expectStoredSession(jar, dave.id)
          expect((await subject.store.authenticators())[0]!.counter).toBeGreaterThan(0)
          expect(errors()).toEqual([])
        })
      })
    })
  })
}

