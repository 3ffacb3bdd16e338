/**
 * Who an email sign-in signs in: the `signIn` callback at both steps, the users it creates or
 * verifies, the events, and the adapter calls in order.
 */
import { describe, expect, it } from "vitest"
import type { SignInCallbackParams } from "@sesame/core"
import { origin } from "../helpers.js"
import { CookieJar, emailConfig, followLink, interceptAdapter, lastLink, recordingEmail, requestLink, sessionOf } from "./helpers.js"

function location(res: Response): URL {
  expect(res.status).toBe(302)
  return new URL(res.headers.get("location")!)
}

describe("the signIn callback", () => {
  it("blocking an address when the link is requested: AccessDenied, no email, no token", async () => {
    const calls: SignInCallbackParams[] = []
    const { provider, sent } = recordingEmail()
    const { config, adapter } = emailConfig([provider], {
      callbacks: {
        signIn(params) {
          calls.push(params)
          return !params.user.email?.endsWith("@blocked.example")
        },
      },
    })
    const res = location(await requestLink(config, new CookieJar(), "eve@blocked.example"))
    expect(res.pathname).toBe("/auth/error")
    expect(res.searchParams.get("error")).toBe("AccessDenied")
    expect(sent).toEqual([])
    expect(adapter.tables.verificationTokens.size).toBe(0)
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({
      user: { email: "eve@blocked.example", emailVerified: null },
      account: { provider: "email", type: "email", providerAccountId: "eve@blocked.example" },
      email: { verificationRequest: true },
    })
  })

  it("a throw is AccessDenied too, and a string redirects there without sending", async () => {
    const { provider, sent } = recordingEmail()
    const throwing = emailConfig([provider], {
      callbacks: {
        signIn() {
          throw new Error("nope")
        },
      },
    })
    expect(location(await requestLink(throwing.config, new CookieJar(), "ada@example.com")).searchParams.get("error")).toBe("AccessDenied")
    const redirecting = emailConfig([provider], { callbacks: { signIn: () => "/waitlist" } })
    expect(location(await requestLink(redirecting.config, new CookieJar(), "ada@example.com")).href).toBe(`${origin}/waitlist`)
    expect(sent).toEqual([])
  })

  it("runs again when the link is confirmed, without verificationRequest, and can still refuse", async () => {
    const seen: (SignInCallbackParams["email"] | undefined)[] = []
    let allow = true
    const { provider, sent } = recordingEmail()
    const { config, adapter } = emailConfig([provider], {
      callbacks: {
        signIn({ email }) {
          seen.push(email)
          return email?.verificationRequest ? true : allow
        },
      },
    })
    await requestLink(config, new CookieJar(), "ada@example.com")
    allow = false
    const jar = new CookieJar()
    expect(location(await followLink(config, jar, lastLink(sent))).searchParams.get("error")).toBe("AccessDenied")
    expect(seen).toEqual([{ verificationRequest: true }, {}])
    expect(await sessionOf(config, jar)).toBeNull()
    expect(adapter.tables.users.size).toBe(0)
  })
})

describe("the user", () => {
  it("is created verified on the first sign-in (createUser event, isNewUser), with no account row", async () => {
    const events: string[] = []
    const { provider, sent } = recordingEmail()
    const { config, adapter } = emailConfig([provider], {
      events: {
        createUser: ({ user }) => void events.push(`createUser ${user.email}`),
        updateUser: ({ user }) => void events.push(`updateUser ${user.email}`),
        signIn: ({ user, account, isNewUser }) => void events.push(`signIn ${user.email} ${account?.type} ${account?.providerAccountId} ${isNewUser}`),
      },
    })
    const calls: string[] = []
    const watched = { ...config, adapter: interceptAdapter(adapter, (method) => void calls.push(method)) }
    await requestLink(watched, new CookieJar(), "Ada@Example.com ")
    expect(sent[0]!.identifier).toBe("ada@example.com")
    expect(calls).toEqual(["getUserByEmail", "createVerificationToken"])
    calls.length = 0
    await followLink(watched, new CookieJar(), lastLink(sent))
    // store.findOne: the second-factor gate reads the second factor of every user who signs in, new ones too.
    expect(calls).toEqual(["useVerificationToken", "getUserByEmail", "getUserByEmail", "createUser", "store.findOne", "createSession"])
    expect(events).toEqual(["createUser ada@example.com", "signIn ada@example.com email ada@example.com true"])
    expect([...adapter.tables.users.values()][0]!.emailVerified).toBeInstanceOf(Date)
    expect(adapter.tables.accounts.size).toBe(0)
  })

  it("goes to pages.newUser on the first sign-in only", async () => {
    const { provider, sent } = recordingEmail()
    const { config } = emailConfig([provider], { pages: { newUser: "/welcome" } })
    await requestLink(config, new CookieJar(), "ada@example.com", { callbackUrl: "/app" })
    expect(location(await followLink(config, new CookieJar(), lastLink(sent))).href).toBe(`${origin}/welcome?callbackUrl=${encodeURIComponent(`${origin}/app`)}`)
    await requestLink(config, new CookieJar(), "ada@example.com", { callbackUrl: "/app" })
    expect(location(await followLink(config, new CookieJar(), lastLink(sent))).href).toBe(`${origin}/app`)
  })

  it("an existing, unverified user is verified on the first email sign-in (updateUser event), then left alone", async () => {
    const events: string[] = []
    const { provider, sent } = recordingEmail()
    const { config, adapter } = emailConfig([provider], { events: { updateUser: ({ user }) => void events.push(`updateUser ${user.email}`) } })
    await adapter.createUser({ id: "u1", email: "ada@example.com", emailVerified: null, name: "Ada" })
    await requestLink(config, new CookieJar(), "ada@example.com")
    const jar = new CookieJar()
    await followLink(config, jar, lastLink(sent))
    const verified = adapter.tables.users.get("u1")!.emailVerified
    expect(verified).toBeInstanceOf(Date)
    expect(events).toEqual(["updateUser ada@example.com"])
    expect(await sessionOf(config, jar)).toMatchObject({ user: { name: "Ada", email: "ada@example.com" } })
    await requestLink(config, new CookieJar(), "ada@example.com")
    await followLink(config, new CookieJar(), lastLink(sent))
    expect(events).toHaveLength(1)
    expect(adapter.tables.users.size).toBe(1)
  })
})
