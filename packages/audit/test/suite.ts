/**
 * The audit log's behaviour, run on every adapter: each adapter's test file gives the adapter and
 * makes the tables (`prepare`), nothing else. Names are unique per run, so the suite can run on
 * databases that already hold rows.
 *
 * The first test drives a user's whole life through the endpoints and server functions (the core's
 * security scenario, `packages/core/test/security/scenario.ts`, with an organization's membership
 * changes added) and checks that the log holds each action's events exactly once, with the
 * request's IP and user agent, and that a dump of the table holds none of the secrets used.
 */
import { callModuleApi, modelsOf, type AuthConfig, type ModelDeclaration, type SecurityEvent, type SesameModule } from "@sesame/core"
import { userModel, type Adapter } from "@sesame/core/adapters"
import type { DevIdp } from "@sesame/dev-idp"
import { organizations, type InvitationMessage } from "@sesame/organizations"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { CookieJar, csrfToken, request, secret, send } from "../../core/test/helpers.js"
import { client, startIdp } from "../../core/test/oauth/harness.js"
import { clientHeaders, clientIp, securityScenario, typesOf, type ScenarioStep } from "../../core/test/security/scenario.js"
import { audit, auditDeliveryModel, auditEventModel, type AuditEntry, type AuditOptions, type AuditPage } from "../src/index.js"
import { receiver } from "./receiver.js"

const unique = () => crypto.randomUUID().slice(0, 8)
const quiet = { error: () => {}, warn: () => {}, debug: () => {} }

/** A small app on `adapter`: users signed in by credentials (any name), the audit module, and a probe that reports what it is told. */
export function smallApp(adapter: Adapter, options: AuditOptions = {}, logger: AuthConfig["logger"] = quiet) {
  const module = audit(options)
  const probe: SesameModule = {
    id: "probe",
    api: {
      async report(request, event: { type: string; userId: string | null; details?: Record<string, string | number> }) {
        await request.securityEvent(event)
      },
    },
  }
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    providers: [
      {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        credentials: { username: {} },
        createUser: true,
        authorize: (fields) => ({ id: String(fields.username), email: `${String(fields.username)}@example.com`, name: String(fields.username) }),
      },
    ],
    plugins: [module, probe],
    logger,
  }
  /** Signs `name` in (creating the user the first time); the browser's cookies. */
  const signIn = async (name: string) => {
    const jar = new CookieJar()
    await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfToken(config, jar), username: name }, headers: clientHeaders })
    return jar
  }
  const api = <T>(jar: CookieJar | undefined, name: string, ...args: unknown[]) => callModuleApi(request("/", { headers: clientHeaders, ...(jar ? { jar } : {}) }), config, name, ...args) as Promise<T>
  return { config, module, signIn, api }
}

export function auditTests(name: string, adapter: Adapter, prepare?: (models: ModelDeclaration[]) => Promise<unknown>): void {
  describe(`the audit log on ${name}`, () => {
    const idpAccount = { id: `linked-${unique()}`, email: `elsewhere-${unique()}@example.com`, name: "Ada" }
    let idp: DevIdp

    beforeAll(async () => {
      idp = await startIdp({ clients: [client("dev")], accounts: [idpAccount] })
      const invitations: InvitationMessage[] = []
      const world = securityScenario({ adapter, idp, idpAccount, plugins: [audit(), organizations({ invitations: { send: (m) => void invitations.push(m) } })] })
      await prepare?.([...modelsOf(world.config), userModel(world.config.user!.fields!)])
    })

    afterAll(async () => {
      await idp.close()
    })

    it("records every security event of a user's life exactly once, with the IP and user agent, and none of the secrets", async () => {
      const invitations: InvitationMessage[] = []
      const orgs = organizations({ invitations: { send: (m) => void invitations.push(m) } })
      const world = securityScenario({ adapter, idp, idpAccount, plugins: [audit(), orgs] })
      const { ada, eve } = world.browsers
      const call = <T>(who: typeof ada, name: string, ...args: unknown[]) => callModuleApi(who.request(), world.config, name, ...args) as Promise<T>
      let organizationId = ""
      let memberId = ""
      const orgSteps: ScenarioStep[] = [
        {
          name: "an organization created",
          expect: ["organization.created"],
          async run() {
            organizationId = (await call<{ id: string }>(ada, "createOrganization", { name: `Acme ${unique()}` })).id
          },
        },
        {
          name: "a member invited",
          expect: ["organization.invitation.created"],
          async run() {
            await call(ada, "inviteMember", organizationId, world.emails.eve, ["member"])
          },
        },
        {
          name: "the invitation accepted",
          expect: ["organization.invitation.accepted", "organization.member.added"],
          async run() {
            const token = new URL(invitations.at(-1)!.url).searchParams.get("token")!
            world.secrets.add(token)
            memberId = (await call<{ memberId: string }>(eve, "acceptInvitation", token)).memberId
          },
          check(events) {
            expect(events.find((e) => e.type === "organization.member.added")).toMatchObject({ userId: world.eve(), actorId: world.eve(), details: { organizationId, memberId, roles: ["member"] } })
          },
        },
        {
          name: "the member's roles changed",
          expect: ["organization.member.roles-changed"],
          async run() {
            await call(ada, "setMemberRoles", organizationId, memberId, ["admin"])
          },
          check([changed]) {
            expect(changed).toMatchObject({ userId: world.eve(), actorId: world.user(), details: { roles: ["admin"], previous: ["member"] } })
          },
        },
        {
          name: "the member removed",
          expect: ["organization.member.removed"],
          async run() {
            await call(ada, "removeMember", organizationId, memberId)
          },
        },
      ]
      const steps = [...world.steps]
      steps.splice(steps.findIndex((s) => s.name.startsWith("a wrong password for an address")), 0, ...orgSteps)

      /** The log's rows since `after` (a row id), oldest first: read from the table itself. */
      const rowsAfter = async (after: string) => (await adapter.store!.findMany(auditEventModel, { orderBy: [{ field: "id", direction: "asc" }] })).filter((row) => String(row.id) > after)
      let last = ""
      const runIds = new Set<string>()
      for (const step of steps) {
        await step.run()
        const rows = await rowsAfter(last)
        // Rows of other files' runs on a shared database are not this run's.
        const mine = rows.filter((row) => row.userAgent === clientHeaders["user-agent"])
        expect(typesOf(mine as { type: string }[]), step.name).toEqual([...step.expect].sort())
        for (const row of mine) {
          expect(row.ip, step.name).toBe(clientIp)
          runIds.add(String(row.id))
        }
        step.check?.(mine.map((row) => ({ ...row, details: row.details ?? undefined }) as unknown as SecurityEvent))
        if (rows.length > 0) last = String(rows.at(-1)!.id)
      }
      // Every event the scenario caused is there, and a dump of the whole table names no secret.
      expect(world.secrets.size).toBeGreaterThan(20)
      const dump = JSON.stringify(await adapter.store!.findMany(auditEventModel, {}))
      for (const value of world.secrets) expect(dump.includes(value), `a secret is in the log: ${value.slice(0, 4)}…`).toBe(false)
      const types = new Set((await adapter.store!.findMany(auditEventModel, {})).filter((row) => runIds.has(String(row.id))).map((row) => String(row.type)))
      expect(types.size).toBe(15 + 6)
      // The deleted user's events outlive them: the log refers to nobody.
      expect(await adapter.store!.count(auditEventModel, { userId: world.user(), type: "user.deleted" })).toBe(1)
    })

    it("pages newest first with an opaque cursor, and filters by user, actor, type and time", async () => {
      const reader = `reader-${unique()}`
      const app = smallApp(adapter, { canRead: (user) => user.id === reader })
      const subject = `subject-${unique()}`
      const subjectJar = await app.signIn(subject)
      for (let i = 0; i < 7; i++) await app.api(subjectJar, "report", { type: "probe.tick", userId: subject, details: { i } })
      const readerJar = await app.signIn(reader)
      const pages: AuditEntry[][] = []
      let cursor: string | undefined
      do {
        const page: AuditPage | null = await app.api(readerJar, "auditLog", { userId: subject, limit: 3, ...(cursor ? { cursor } : {}) })
        pages.push(page!.events)
        cursor = page!.nextCursor ?? undefined
      } while (cursor)
      expect(pages.map((p) => p.length)).toEqual([3, 3, 3])
      const all = pages.flat()
      // Seven reports, the sign-in and the user's creation, newest first, each once.
      expect(all.map((e) => e.type)).toEqual([...Array(7).fill("probe.tick"), "sign-in", "user.created"])
      expect(all.slice(0, 7).map((e) => e.details?.i)).toEqual([6, 5, 4, 3, 2, 1, 0])
      expect(new Set(all.map((e) => e.id)).size).toBe(9)
      for (let i = 1; i < all.length; i++) expect(all[i - 1]!.at.getTime()).toBeGreaterThanOrEqual(all[i]!.at.getTime())
      expect(all[0]).toMatchObject({ actorId: subject, userId: subject, ip: clientIp, userAgent: clientHeaders["user-agent"] })

      const ofType = await app.api<AuditPage>(readerJar, "auditLog", { userId: subject, type: "sign-in" })
      expect(ofType.events.map((e) => e.type)).toEqual(["sign-in"])
      const byActor = await app.api<AuditPage>(readerJar, "auditLog", { actorId: reader })
      expect(byActor.events.map((e) => [e.type, e.userId])).toEqual([
        ["sign-in", reader],
        ["user.created", reader],
      ])
      const middle = all[3]!.at
      const since = await app.api<AuditPage>(readerJar, "auditLog", { userId: subject, since: middle.toISOString() })
      expect(since.events.every((e) => e.at.getTime() >= middle.getTime())).toBe(true)
      expect(since.events.length).toBeGreaterThanOrEqual(4)
      const until = await app.api<AuditPage>(readerJar, "auditLog", { userId: subject, until: all[6]!.at })
      expect(until.events.every((e) => e.at.getTime() < all[6]!.at.getTime())).toBe(true)
      await expect(app.api(readerJar, "auditLog", { cursor: "not a cursor" })).rejects.toThrow(/cursor/)
      await expect(app.api(readerJar, "auditLog", { limit: 1000 })).rejects.toThrow(/limit/)
    })

    it("myAuditLog and GET audit/me show the user's own events, never another's", async () => {
      const app = smallApp(adapter)
      const ada = `ada-${unique()}`
      const eve = `eve-${unique()}`
      const adaJar = await app.signIn(ada)
      const eveJar = await app.signIn(eve)
      await app.api(eveJar, "report", { type: "probe.about-ada", userId: ada })
      const mine = await app.api<AuditPage>(adaJar, "myAuditLog")
      expect(mine.events.map((e) => e.type)).toEqual(["probe.about-ada", "sign-in", "user.created"])
      expect(mine.events.every((e) => e.userId === ada)).toBe(true)
      const eves = await app.api<AuditPage>(eveJar, "myAuditLog", { limit: 200 })
      expect(eves.events.every((e) => e.userId === eve)).toBe(true)
      expect(eves.events.map((e) => e.type)).toEqual(["sign-in", "user.created"])
      const response = await send(app.config, "/auth/audit/me?limit=2", { jar: adaJar })
      expect(response.status).toBe(200)
      expect(response.headers.get("cache-control")).toMatch(/no-store/)
      const body = (await response.json()) as { events: { type: string; at: string; userId: string }[]; nextCursor: string | null }
      expect(body.events.map((e) => e.type)).toEqual(["probe.about-ada", "sign-in"])
      expect(typeof body.events[0]!.at).toBe("string")
      expect(body.nextCursor).not.toBeNull()
      const next = (await (await send(app.config, `/auth/audit/me?cursor=${body.nextCursor}`, { jar: adaJar })).json()) as { events: { type: string }[] }
      expect(next.events.map((e) => e.type)).toEqual(["user.created"])
      expect(await app.api(undefined, "myAuditLog")).toBeNull()
      expect((await send(app.config, "/auth/audit/me")).status).toBe(401)
      expect((await send(app.config, "/auth/audit/me?limit=abc", { jar: adaJar })).status).toBe(400)
    })

    it("refuses everyone's log to a user canRead does not allow, to a visitor, and to all without canRead", async () => {
      const admin = `admin-${unique()}`
      const app = smallApp(adapter, { canRead: async (user) => user.id === admin })
      const userJar = await app.signIn(`user-${unique()}`)
      const adminJar = await app.signIn(admin)
      expect(await app.api(userJar, "auditLog", {})).toBeNull()
      expect(await app.api(undefined, "auditLog", {})).toBeNull()
      expect((await app.api<AuditPage>(adminJar, "auditLog", { actorId: admin })).events.length).toBe(2)
      expect((await send(app.config, "/auth/audit/events", { jar: userJar })).status).toBe(403)
      expect((await send(app.config, "/auth/audit/events")).status).toBe(401)
      const allowed = await send(app.config, `/auth/audit/events?actorId=${admin}&limit=1`, { jar: adminJar })
      expect(allowed.status).toBe(200)
      expect(((await allowed.json()) as { events: unknown[] }).events).toHaveLength(1)
      expect((await send(app.config, "/auth/audit/events?since=yesterday", { jar: adminJar })).status).toBe(400)

      const closed = smallApp(adapter)
      const someone = await closed.signIn(`someone-${unique()}`)
      await expect(closed.api(someone, "auditLog", {})).rejects.toThrow(/canRead/)
      expect((await send(closed.config, "/auth/audit/events", { jar: someone })).status).toBe(403)
    })

    it("keeps an event keepDays: after that it no longer exists", async () => {
      vi.useFakeTimers({ toFake: ["Date"] })
      try {
        const app = smallApp(adapter, { keepDays: 2 })
        const name = `old-${unique()}`
        const jar = await app.signIn(name)
        expect((await app.api<AuditPage>(jar, "myAuditLog")).events).toHaveLength(2)
        const [row] = await adapter.store!.findMany(auditEventModel, { where: { userId: name, type: "sign-in" } })
        expect((row!.expires as Date).getTime() - (row!.at as Date).getTime()).toBe(2 * 86_400_000)
        vi.setSystemTime(Date.now() + 2 * 86_400_000 + 1000)
        // A new session: the old one is older than the clock now says, too.
        const later = await app.signIn(name)
        expect((await app.api<AuditPage>(later, "myAuditLog")).events.map((e) => e.type)).toEqual(["sign-in"])
      } finally {
        vi.useRealTimers()
      }
    })

    it("drops details named like a secret, and stores only the event's fields", async () => {
      const app = smallApp(adapter)
      const name = `detail-${unique()}`
      const jar = await app.signIn(name)
      await app.api(jar, "report", { type: "probe.leaky", userId: name, details: { token: "tok-XYZ", resetCode: "123456", passwordHint: "pony", count: 3 } })
      const [row] = await adapter.store!.findMany(auditEventModel, { where: { userId: name, type: "probe.leaky" } })
      expect(row!.details).toEqual({ count: 3 })
      expect(JSON.stringify(row)).not.toMatch(/tok-XYZ|123456|pony/)
    })

    it("forwards each event to onEvent, whose throw never breaks the flow", async () => {
      const seen: AuditEntry[] = []
      const errors: Error[] = []
      const app = smallApp(adapter, { onEvent: (event) => void seen.push(event) })
      const name = `fwd-${unique()}`
      await app.signIn(name)
      expect(seen.filter((e) => e.userId === name).map((e) => e.type).sort()).toEqual(["sign-in", "user.created"])
      expect(seen.find((e) => e.type === "sign-in")!.id).toMatch(/^\d{15}-[0-9a-f]{16}$/)
      const throwing = smallApp(adapter, { onEvent: () => Promise.reject(new Error("queue down")) }, { ...quiet, error: (e: Error) => void errors.push(e) })
      const other = `throw-${unique()}`
      const jar = await throwing.signIn(other)
      expect((await throwing.api<AuditPage>(jar, "myAuditLog")).events).toHaveLength(2)
      expect(errors.map((e) => e.message).join(" ")).toMatch(/onEvent threw/)
    })

    it("signs each webhook, retries a failure with backoff from its stored delivery, also after the module is made again, and keeps an exhausted one as failed", async () => {
      const secretBytes = crypto.getRandomValues(new Uint8Array(32))
      const webhookSecret = `whsec_${btoa(String.fromCharCode(...secretBytes))}`
      const server = await receiver(webhookSecret, { failFirst: 2 })
      vi.useFakeTimers({ toFake: ["Date"] })
      try {
        const options: AuditOptions = { webhook: { url: server.url, secret: webhookSecret, retries: 3, retryDelay: 3600 } }
        const first = smallApp(adapter, options)
        const name = `hook-${unique()}`
        const jar = await first.signIn(name)
        const mine = async () => (await adapter.store!.findMany(auditDeliveryModel, {})).filter((row) => String(row.body).includes(name))
        // Each event's first attempt, in the background, was refused; nothing else is due for an hour.
        expect(await first.api(jar, "deliverAuditWebhooks")).toMatchObject({ delivered: 0, failed: 0 })
        expect((await mine()).map((row) => [row.status, row.attempts, row.lastError])).toEqual([
          ["pending", 1, "HTTP 503"],
          ["pending", 1, "HTTP 503"],
        ])
        vi.setSystemTime(Date.now() + 3601_000)
        // A new module (a restart) finds the stored deliveries and tries them: refused once more,
        // and the next attempt waits twice as long.
        const second = smallApp(adapter, options)
        expect(await second.api(jar, "deliverAuditWebhooks")).toMatchObject({ delivered: 0, failed: 0 })
        for (const row of await mine()) {
          expect(row.attempts).toBe(2)
          expect((row.nextAttemptAt as Date).getTime() - Date.now()).toBeGreaterThan(7000_000)
        }
        vi.setSystemTime(Date.now() + 7201_000)
        expect(await second.api(jar, "deliverAuditWebhooks")).toMatchObject({ delivered: 2, failed: 0 })
        expect((await mine()).map((row) => [row.status, row.attempts])).toEqual([
          ["delivered", 3],
          ["delivered", 3],
        ])
        const delivered = server.accepted.filter((m) => m.body.includes(name))
        expect(delivered.map((m) => (JSON.parse(m.body) as { type: string }).type).sort()).toEqual(["sign-in", "user.created"])
        for (const message of delivered) {
          const parsed = JSON.parse(message.body) as { type: string; timestamp: string; data: AuditEntry }
          expect(parsed.data).toMatchObject({ userId: name, ip: clientIp, userAgent: clientHeaders["user-agent"] })
          expect(message.id).toBe(`msg_${parsed.data.id}`)
        }
        // Every attempt was signed, and one message kept its id through its three attempts.
        const attempts = server.attempts.filter((a) => a.body.includes(name))
        expect(attempts).toHaveLength(6)
        expect(attempts.every((a) => a.verified)).toBe(true)
        expect(new Set(attempts.map((a) => a.id)).size).toBe(2)
      } finally {
        vi.useRealTimers()
        await server.close()
      }

      // A receiver that never accepts: three retries, then kept as failed and logged.
      const refusing = await receiver(webhookSecret, { failFirst: Infinity })
      try {
        const errors: Error[] = []
        const app = smallApp(adapter, { webhook: { url: refusing.url, secret: webhookSecret, retries: 2, retryDelay: 0 } }, { ...quiet, error: (e: Error) => void errors.push(e) })
        const name = `refused-${unique()}`
        const jar = await app.signIn(name)
        for (let i = 0; i < 4; i++) await app.api(jar, "deliverAuditWebhooks")
        const failed = (await adapter.store!.findMany(auditDeliveryModel, { where: { status: "failed" } })).filter((row) => String(row.body).includes(name))
        expect(failed).toHaveLength(2)
        expect(failed.every((row) => row.attempts === 3 && row.lastError === "HTTP 503")).toBe(true)
        expect(errors.filter((e) => /kept as failed/.test(e.message))).toHaveLength(2)
        expect(refusing.attempts.filter((a) => a.body.includes(name))).toHaveLength(6)
      } finally {
        await refusing.close()
      }
    })

    it("never follows a redirect: a 3xx answer is a failure", async () => {
      const secretBytes = crypto.getRandomValues(new Uint8Array(32))
      const webhookSecret = `whsec_${btoa(String.fromCharCode(...secretBytes))}`
      const target = await receiver(webhookSecret, { failFirst: 0 })
      const redirecting = await receiver(webhookSecret, { redirectTo: target.url })
      try {
        const app = smallApp(adapter, { webhook: { url: redirecting.url, secret: webhookSecret, retries: 0, retryDelay: 0 } })
        const name = `redirect-${unique()}`
        const jar = await app.signIn(name)
        await app.api(jar, "deliverAuditWebhooks")
        expect(target.attempts).toHaveLength(0)
        const failed = (await adapter.store!.findMany(auditDeliveryModel, { where: { status: "failed" } })).filter((row) => String(row.body).includes(name))
        expect(failed.map((row) => row.lastError)).toEqual(["HTTP 302", "HTTP 302"])
      } finally {
        await Promise.all([target.close(), redirecting.close()])
      }
    })
  })
}
