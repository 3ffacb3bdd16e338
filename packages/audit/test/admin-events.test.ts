/**
 * The admin module's actions in the audit log, on the memory adapter (one store for both modules):
 * a suspension and its lifting, an impersonation started and stopped, a user created, a reset link
 * sent, a user's sessions ended, a user deleted, and an address change, each recorded exactly once
 * (read through `auditLog`, the log's query API), naming the admin who acted and the user acted on;
 * and a dump of every stored row holds none of the secrets the run used (passwords, reset and
 * address-change link tokens, session and CSRF cookies).
 */
import { requestEmailChange, setPassword } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { describe, expect, it } from "vitest"
import { makeWorld, origin, secret } from "../../admin/test/world.js"
import { audit, auditEventModel, type AuditEntry, type AuditPage } from "../src/index.js"

type Browser = ReturnType<ReturnType<typeof makeWorld>["browser"]>

/** One action: what it does, and the event types it must add to the log, once each. */
interface Step {
  name: string
  expect: string[]
  run(): Promise<void>
  /** The admin event it records: who must be its actor and its user. */
  admin?: { type: string; actorId: () => string; userId: () => string }
}

describe("the admin module's actions in the audit log (memory adapter)", () => {
  it("records each admin action exactly once, with the admin as actor and the user acted on, and none of the secrets", async () => {
    const adapter = MemoryAdapter()
    let bossId = ""
    const world = makeWorld({ adapter, password: {}, plugins: [audit({ canRead: (user) => user.id === bossId })] })
    const boss = await world.user("boss@example.com", "admin")
    bossId = boss.id
    const pat = await world.user("pat@example.com")
    const admins = world.browser()
    const pats = world.browser()
    const browsers: Browser[] = [admins, pats]
    const secrets = new Set<string>([secret])
    const patPassword = "pat's own passphrase 4711"
    secrets.add(patPassword)
    /** Every session, kept-session and CSRF cookie the browsers hold now: secrets all. */
    const keepCookies = () => {
      for (const browser of browsers) for (const [name, value] of browser.jar.cookies) if (/session|csrf/.test(name)) secrets.add(decodeURIComponent(value))
    }
    /** The token of the last email of `kind`. */
    const lastToken = (kind: string) => {
      const mail = world.mails.filter((m) => m.kind === kind).at(-1)
      if (!mail) throw new Error(`no ${kind} email`)
      const token = new URL(mail.url).searchParams.get("token")!
      secrets.add(token)
      return mail.url
    }
    const patRequest = () => new Request(`${origin}/`, { headers: { cookie: pats.jar.header() } })
    const form = async (browser: Browser, path: string, fields: Record<string, string>) => {
      const response = await browser.send(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body: new URLSearchParams({ csrfToken: await browser.csrf(), ...fields }).toString(),
      })
      keepCookies()
      return response.headers.get("location") ?? ""
    }

    expect(await admins.signIn(boss.email)).toBe(`${origin}/`)
    expect(await pats.signIn(pat.email)).toBe(`${origin}/`)
    // Pat sets a password of their own (a recent sign-in): a secret that must stay out of the log.
    expect(await setPassword(patRequest(), world.config, { newPassword: patPassword })).toEqual({ set: true })
    keepCookies()

    let created = ""
    let newAddress = ""
    const steps: Step[] = [
      {
        name: "Pat suspended",
        // The core's record that Pat's sessions ended comes with it.
        expect: ["admin.user-suspended", "sessions.revoked"],
        admin: { type: "admin.user-suspended", actorId: () => boss.id, userId: () => pat.id },
        async run() {
          expect(await admins.api("banUser", pat.id, { reason: "chargebacks" })).toMatchObject({ userId: pat.id, sessionsEnded: 1 })
          expect(await pats.who()).toBeNull()
        },
      },
      {
        name: "the suspension lifted",
        expect: ["admin.user-restored"],
        admin: { type: "admin.user-restored", actorId: () => boss.id, userId: () => pat.id },
        async run() {
          expect(await admins.api("unbanUser", pat.id)).toBe(true)
        },
      },
      {
        name: "an impersonation of Pat started",
        expect: ["admin.impersonation-started"],
        admin: { type: "admin.impersonation-started", actorId: () => boss.id, userId: () => pat.id },
        async run() {
          expect(await form(admins, "admin/act", { action: "impersonate", userId: pat.id })).toBe(`${origin}/`)
          expect(await admins.who()).toBe(pat.email)
          keepCookies()
        },
      },
      {
        name: "the impersonation stopped",
        expect: ["admin.impersonation-ended"],
        admin: { type: "admin.impersonation-ended", actorId: () => boss.id, userId: () => pat.id },
        async run() {
          expect(await form(admins, "admin/acting", {})).toBe(`${origin}/auth/admin/view?userId=${pat.id}&done=impersonate`)
          expect(await admins.who()).toBe(boss.email)
        },
      },
      {
        name: "a user created",
        expect: ["admin.user-created", "user.created"],
        admin: { type: "admin.user-created", actorId: () => boss.id, userId: () => created },
        async run() {
          const result = (await admins.api("createUser", { email: "newcomer@example.com", name: "Newcomer" })) as { user: { id: string } }
          created = result.user.id
        },
      },
      {
        name: "a reset link sent to Pat",
        expect: ["admin.password-reset-sent"],
        admin: { type: "admin.password-reset-sent", actorId: () => boss.id, userId: () => pat.id },
        async run() {
          const before = world.mails.length
          expect(await admins.api("sendPasswordReset", pat.id)).toBe(true)
          expect(world.mails.length).toBe(before + 1)
          lastToken("reset-password")
        },
      },
      {
        name: "Pat signs in again",
        expect: ["sign-in"],
        async run() {
          expect(await pats.signIn(pat.email)).toBe(`${origin}/`)
          keepCookies()
        },
      },
      {
        name: "Pat's sessions ended",
        expect: ["admin.sessions-revoked", "sessions.revoked"],
        admin: { type: "admin.sessions-revoked", actorId: () => boss.id, userId: () => pat.id },
        async run() {
          expect(await admins.api("revokeUserSessions", pat.id)).toBe(1)
          expect(await pats.who()).toBeNull()
        },
      },
      {
        name: "Pat signs in again, and asks to change their address",
        expect: ["sign-in"],
        async run() {
          expect(await pats.signIn(pat.email)).toBe(`${origin}/`)
          keepCookies()
          newAddress = "pat.new@example.com"
          expect(await requestEmailChange(patRequest(), world.config, { email: newAddress })).toEqual({ requested: true })
        },
      },
      {
        name: "Pat follows the link: the address changes",
        expect: ["user.updated"],
        async run() {
          const link = new URL(lastToken("change-email"))
          const response = await pats.send("account/email-confirm", {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", origin },
            body: new URLSearchParams({ csrfToken: await pats.csrf(), ...Object.fromEntries(["token", "email", "user"].map((n) => [n, link.searchParams.get(n)!])) }).toString(),
          })
          expect(response.status).toBe(302)
          expect((await adapter.getUser!(pat.id))?.email).toBe(newAddress)
          keepCookies()
        },
      },
      {
        name: "Pat deleted",
        expect: ["admin.user-deleted"],
        admin: { type: "admin.user-deleted", actorId: () => boss.id, userId: () => pat.id },
        async run() {
          expect(await admins.api("removeUser", pat.id)).toBe(true)
          expect(await adapter.getUser!(pat.id)).toBeNull()
        },
      },
    ]

    const rows = async () => adapter.store!.findMany(auditEventModel, { orderBy: [{ field: "id", direction: "asc" }] })
    let seen = (await rows()).length
    for (const step of steps) {
      await step.run()
      const all = await rows()
      const added = all.slice(seen)
      seen = all.length
      expect(added.map((row) => String(row.type)).sort(), step.name).toEqual([...step.expect].sort())
      // What the core records beside an admin's action is about the same user, and never says the user did it.
      const target = step.admin?.userId()
      for (const row of added.filter((r) => !String(r.type).startsWith("admin.") && step.admin)) {
        expect(row.userId, step.name).toBe(target)
        expect([null, boss.id], step.name).toContain(row.actorId)
      }
    }

    // Through the log's query API, as an admin allowed to read it: each admin event once, the admin
    // as its actor, the user acted on as its user.
    const adminSteps = steps.filter((s) => s.admin)
    expect(adminSteps).toHaveLength(8)
    for (const step of adminSteps) {
      const { type, actorId, userId } = step.admin!
      const page = (await admins.api("auditLog", { type, limit: 200 })) as AuditPage
      expect(
        page.events.map((e) => [e.type, e.actorId, e.userId]),
        step.name,
      ).toEqual([[type, actorId(), userId()]])
    }
    // The address change: once, by Pat, about Pat, naming the field and nothing of its value.
    const updated = ((await admins.api("auditLog", { userId: pat.id, type: "user.updated" })) as AuditPage).events
    expect(updated.map((e) => [e.actorId, e.userId, e.details])).toEqual([[pat.id, pat.id, { fields: ["email"] }]])
    // What the admin did, newest first, by actor (GET audit/events, the endpoint): their sign-in and their eight actions.
    const response = await admins.send("audit/events", { query: { actorId: boss.id, limit: "50" } })
    expect(response.status).toBe(200)
    const byBoss = ((await response.json()) as { events: AuditEntry[] }).events
    expect(byBoss.map((e) => e.type)).toEqual([...adminSteps.map((s) => s.admin!.type).reverse(), "sign-in"])
    // Pat's events outlive Pat.
    expect(((await admins.api("auditLog", { userId: pat.id, type: "admin.user-deleted" })) as AuditPage).events).toHaveLength(1)

    // A dump of every stored row holds none of the run's secrets.
    expect([...secrets].filter((s) => s === patPassword || world.mails.some((m) => m.url.includes(s)))).toHaveLength(3)
    expect(secrets.size).toBeGreaterThan(8)
    const dump = JSON.stringify(await adapter.store!.findMany(auditEventModel, {}))
    expect(dump).toContain(pat.id)
    for (const value of secrets) expect(dump.includes(value), `a secret is in the log: ${value.slice(0, 4)}…`).toBe(false)
  })
})
