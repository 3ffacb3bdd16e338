/**
 * The outage suite (issue 40) that every adapter's `outage.test.ts` runs on its real server: a
 * restart of the database is a short "try again", never a sign-out. `Auth()` runs with the adapter
 * on a client connected through a TCP proxy ({@link tcpProxy}) that the tests cut (every connection
 * destroyed, new ones refused, as while the server restarts) and restore; the shared server itself
 * is never touched.
 *
 * Used by adapter-pg, adapter-mysql, adapter-redis and authjs-compat (`@auth/pg-adapter`), which
 * import it by relative path: each test file keeps only how it builds its client and adapter
 * through the proxy, its schema and cleanup, and the cases of its own.
 *
 * @module
 */
import { createServer, connect, type Server, type Socket } from "node:net"
import type { AuthConfig } from "@sesame/core"
import { tcpProxy, type TcpProxy } from "@sesame/testing"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { aliceCredentials, CookieJar, csrfToken, home, secret, send, signInAlice, users } from "../../core/test/helpers.js"

export const sessionCookie = "sesame.session-token"

/** Who a sign-in of the test signs in (the session answers them). */
export interface OutageUser {
  name: string
  email: string
}

/** The providers of the configurations, and how the suite signs a visitor in with them. */
export interface OutageAccounts {
  providers(): AuthConfig["providers"]
  /** Signs a new visitor in with `jar` (making the account when the provider needs one); answers the sign-in's response and who it signed in. */
  signIn(c: AuthConfig, jar: CookieJar): Promise<{ response: Response; user: OutageUser }>
  /** Where and what a browser posts to sign `user` in again (the CSRF token is added). */
  signInForm(user: OutageUser): { path: string; form: Record<string, string> }
}

/** Sesame's test credentials: alice / "correct horse", the user made at her first sign-in. */
const aliceAccounts: OutageAccounts = {
  providers: () => [aliceCredentials({ createUser: true })],
  signIn: async (c, jar) => ({ response: await signInAlice(c, jar), user: { name: users.alice.name, email: users.alice.email } }),
  signInForm: () => ({ path: "/auth/callback/credentials", form: { username: "alice", password: users.alice.password } }),
}

/** What goes away, and how a test file wires its adapter to it. */
export interface OutageSubject {
  /** The server, as the titles name it: "PostgreSQL", "MariaDB", "Redis". */
  server: string
  /** Before the titles, for an adapter that is not Sesame's: "@auth/pg-adapter". */
  label?: string
  /** The real server, which the proxy forwards to. */
  target: { host?: string; port: number }
  /** A new adapter on the file's client through {@link OutageHarness.proxy}; each configuration has its own, so its own outage log. */
  adapter(): AuthConfig["adapter"]
  /** The providers and how a visitor signs in with them: Sesame's test credentials ({@link aliceAccounts}) unless said. */
  accounts?: OutageAccounts
  /**
   * How long a session read may take while cut (ms): Sesame's three attempts, each failing as fast
   * as the driver notices. 2000 unless said: two short retries (50 ms, 150 ms), then the answer.
   */
  readWithin?: number
  /** How long the first session read after the restore may take (ms), where the driver makes it wait for its reconnection. */
  backWithin?: number
  /**
   * For a pool: called once the pool holds idle connections, just before a restart with no request
   * in between. Checks there are some, and answers the check, run after the first read that
   * follows, that the pool learned of the dead ones from their sockets (not from a failed request).
   * Without it, the restart case only checks that the first read after it works.
   */
  watchIdleConnections?: () => () => void
  /** Sesame warns at start about this adapter (optional methods it lacks): only the outage's warning is compared. */
  startupWarnings?: boolean
  /**
   * The adapter's `getUser` answers null for any failure (`@auth/pg-adapter`), so a sign-in during
   * the outage logs it as two: the main case leaves the sign-in out, for a case of the file's own.
   */
  getUserHidesFailures?: boolean
  /**
   * The JWT-session case: reading the session never needs the database; a sign-in does with
   * Sesame's adapters (the second-factor gate, on with the adapter's store, looks the user up), not
   * with an adapter that has no store. Without it, no JWT case.
   */
  jwt?: "sign-in needs the database" | "sign-in needs no database"
  /** The file's own cases of the database-sessions group, registered after its first case. */
  cases?: (outage: OutageHarness) => void
}

/** What the suite hands the file's own cases. */
export interface OutageHarness {
  /** The proxy in front of the server: there from the suite's `beforeAll` on (read it then, not when registering). */
  readonly proxy: TcpProxy
  /** The server goes away: the proxy destroys every connection and refuses new ones. */
  cut(): Promise<void>
  /** The server is back: the proxy lets connections through again (after each test too). */
  restore(): Promise<void>
  /** What the configuration's logger received since the test began: errors and warning codes (debug is dropped). */
  readonly log: { errors: Error[]; warnings: string[] }
  typeOf(error: Error): string
  /** The `StorageUnavailable` errors logged. */
  outageErrors(): Error[]
  /** The `storage-available-again` warnings logged. */
  backAgain(): string[]
  /** A configuration with a new adapter ({@link OutageSubject.adapter}) and the logger. */
  config(overrides?: Partial<AuthConfig>): AuthConfig
  /** Signs a new visitor in: to the home page, with a session cookie. */
  signIn(c: AuthConfig): Promise<{ jar: CookieJar; user: OutageUser }>
  /** The answer to `GET /auth/session` with `jar`, with how long it took. */
  readSession(c: AuthConfig, jar: CookieJar): Promise<{ response: Response; ms: number; body: string }>
  /** A 503 for the outage: `Retry-After`, no cookie set or cleared, no redirect, nothing of a stack or the driver in the body. */
  expectUnavailable(response: Response, body: string): void
  /** A sign-in of `user` by a new visitor: 503, as JSON for a script and the "try again" page for a browser's form, never error=Configuration. */
  expectSignInRefused(c: AuthConfig, user: OutageUser): Promise<void>
  /**
   * A session read of `visitor` while `frozen` holds back the server's answers (a partition): 503
   * and one `StorageUnavailable`; once thawed, the session again and `storage-available-again`.
   * Answers how long the 503 took.
   */
  expectPartitionHeals(c: AuthConfig, visitor: { jar: CookieJar; user: OutageUser }, frozen: FreezingProxy): Promise<number>
}

/**
 * {@link OutageSubject.watchIdleConnections} for a node-postgres pool whose `error` listener
 * pushes to `errors`: the pool reports each idle connection that died with the server.
 */
export function reportedDeadConnections(pool: () => { idleCount: number }, errors: readonly Error[]): () => () => void {
  return () => {
    expect(pool().idleCount).toBeGreaterThan(0)
    const reported = errors.length
    return () => expect(errors.length).toBeGreaterThan(reported)
  }
}

/** What of a driver's error must never reach a response body, whichever the driver. */
const driverLeaks = /\n\s+at |node_modules|ECONNREFUSED|Connection terminated|PROTOCOL_CONNECTION_LOST|MaxRetriesPerRequest|Connection is closed|Command timed out|127\.0\.0\.1/

/**
 * Registers the outage suite for `subject`, and the hooks of the whole file: call it at the top of
 * the file, before the file's own `beforeAll` (which builds its client on `outage.proxy.port`).
 *
 * Every adapter must show, while its server is cut: a session read answers 503 with `Retry-After`
 * within {@link OutageSubject.readWithin} and leaves the cookie alone; a sign-in (JSON and form)
 * and a sign-out answer 503, and set or clear no cookie; the log has one `StorageUnavailable` for
 * the whole outage, however many requests fail, and no driver detail reaches a body. Once
 * restored: the very next session read answers the session, a restart with no request in between
 * costs no request, the refused sign-out works, and the log says `storage-available-again` once
 * per outage. With JWT sessions ({@link OutageSubject.jwt}), reading the session needs no database,
 * so it answers during the outage too.
 */
export function runOutageTests(subject: OutageSubject): OutageHarness {
  const accounts = subject.accounts ?? aliceAccounts
  const readWithin = subject.readWithin ?? 2000
  let proxy: TcpProxy
  const log = { errors: [] as Error[], warnings: [] as string[] }
  const logger = { error: (e: Error) => void log.errors.push(e), warn: (code: string) => void log.warnings.push(code), debug: () => {} }
  const typeOf = (e: Error) => (e as { type?: string }).type ?? e.name
  const outageErrors = () => log.errors.filter((e) => typeOf(e) === "StorageUnavailable")
  const backAgain = () => log.warnings.filter((w) => w === "storage-available-again")
  const warnings = () => (subject.startupWarnings ? backAgain() : log.warnings)

  beforeAll(async () => {
    proxy = await tcpProxy(subject.target)
  })
  afterAll(async () => {
    await proxy?.close()
  })
  beforeEach(() => {
    log.errors.length = 0
    log.warnings.length = 0
  })
  // A test that fails while the proxy is cut leaves it to the next one restored.
  afterEach(() => proxy.restore())

  function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
    return { secret, trustHost: true, adapter: overrides.adapter ?? subject.adapter(), providers: accounts.providers(), logger, ...overrides }
  }

  async function signIn(c: AuthConfig) {
    const jar = new CookieJar()
    const { response, user } = await accounts.signIn(c, jar)
    expect(response.headers.get("location")).toBe(home)
    expect(jar.get(sessionCookie)).toBeTruthy()
    return { jar, user }
  }

  async function readSession(c: AuthConfig, jar: CookieJar) {
    const started = performance.now()
    const response = await send(c, "/auth/session", { jar })
    return { response, ms: performance.now() - started, body: await response.text() }
  }

  function expectUnavailable(response: Response, body: string) {
    expect(response.status).toBe(503)
    expect(response.headers.get("retry-after")).toMatch(/^[1-9]\d*$/)
    expect(response.headers.getSetCookie()).toEqual([])
    expect(response.headers.get("location")).toBeNull()
    expect(body).not.toMatch(driverLeaks)
  }

  /** A new visitor's sign-in of `user`: its jar and the response. */
  async function attemptSignIn(c: AuthConfig, user: OutageUser, visitor = new CookieJar(), headers?: Record<string, string>) {
    const { path, form } = accounts.signInForm(user)
    const response = await send(c, path, { jar: visitor, form: { csrfToken: await csrfToken(c, visitor), ...form }, headers })
    return { response, body: await response.text() }
  }

  async function expectSignInRefused(c: AuthConfig, user: OutageUser) {
    const visitor = new CookieJar()
    const scripted = await attemptSignIn(c, user, visitor)
    expectUnavailable(scripted.response, scripted.body)
    expect(JSON.parse(scripted.body)).toMatchObject({ error: "StorageUnavailable" })
    const browser = await attemptSignIn(c, user, visitor, { accept: "text/html" })
    expectUnavailable(browser.response, browser.body)
    expect(browser.response.headers.get("content-type")).toMatch(/^text\/html/)
    expect(browser.body).not.toContain("Configuration")
    expect(visitor.get(sessionCookie)).toBeUndefined()
  }

  async function expectPartitionHeals(c: AuthConfig, { jar, user }: { jar: CookieJar; user: OutageUser }, frozen: FreezingProxy) {
    frozen.freeze()
    const { response, body, ms } = await readSession(c, jar)
    expectUnavailable(response, body)
    expect(JSON.parse(body)).toMatchObject({ error: "StorageUnavailable" })
    expect(log.errors.map(typeOf)).toEqual(["StorageUnavailable"])
    frozen.thaw()
    const back = await readSession(c, jar)
    expect(back.response.status).toBe(200)
    expect(JSON.parse(back.body)).toMatchObject({ user: { name: user.name } })
    expect(warnings()).toEqual(["storage-available-again"])
    return ms
  }

  const outage: OutageHarness = {
    get proxy() {
      return proxy
    },
    cut: () => proxy.cut(),
    restore: () => proxy.restore(),
    log,
    typeOf,
    outageErrors,
    backAgain,
    config,
    signIn,
    readSession,
    expectUnavailable,
    expectSignInRefused,
    expectPartitionHeals,
  }
  const title = (text: string) => (subject.label ? `${subject.label}: ${text}` : text)

  describe(title(`${subject.server} goes away and comes back${subject.jwt ? " (database sessions)" : ""}`), () => {
    it("answers 503 while cut, never a sign-out; the next read after the restore answers the session; one log line each way", async () => {
      const c = config()
      const { jar, user } = await signIn(c)
      const token = jar.get(sessionCookie)!
      expect(JSON.parse((await readSession(c, jar)).body)).toMatchObject({ user })
      const signOutToken = await csrfToken(c, jar)
      expect(proxy.connections).toBeGreaterThan(0)

      await proxy.cut()

      // The session, several times: 503 each time, the cookie kept, one log line for all of them.
      const timings: number[] = []
      for (let i = 0; i < 3; i++) {
        const { response, body, ms } = await readSession(c, jar)
        expectUnavailable(response, body)
        expect(JSON.parse(body)).toMatchObject({ error: "StorageUnavailable" })
        timings.push(ms)
      }
      // Three attempts of the read (50 ms, then 150 ms apart), each failing as the driver does: no hang.
      for (const ms of timings) expect(ms).toBeLessThan(readWithin)
      expect(jar.get(sessionCookie)).toBe(token)

      if (!subject.getUserHidesFailures) await expectSignInRefused(c, user)

      // A sign-out: 503, and the cookie stays (the session row would outlive a cookie cleared now).
      const signOut = await send(c, "/auth/signout", { jar, form: { csrfToken: signOutToken } })
      expectUnavailable(signOut, await signOut.text())
      expect(jar.get(sessionCookie)).toBe(token)

      expect(outageErrors()).toHaveLength(1)
      expect(log.errors.map(typeOf)).toEqual(["StorageUnavailable"])
      expect(warnings()).toEqual([])

      await proxy.restore()

      // The very next read answers the session: nothing of the dead connections is left in the pool.
      const back = await readSession(c, jar)
      expect(back.response.status).toBe(200)
      expect(JSON.parse(back.body)).toMatchObject({ user })
      if (subject.backWithin !== undefined) expect(back.ms).toBeLessThan(subject.backWithin)
      expect(warnings()).toEqual(["storage-available-again"])
      expect(log.errors.map(typeOf)).toEqual(["StorageUnavailable"])

      // And the sign-out refused during the outage now works.
      const out = await send(c, "/auth/signout", { jar, form: { csrfToken: await csrfToken(c, jar) } })
      expect(out.status).toBe(302)
      expect(jar.get(sessionCookie)).toBeUndefined()
      expect(JSON.parse((await readSession(c, jar)).body)).toBeNull()
      expect(log.errors).toHaveLength(1)
    })

    subject.cases?.(outage)

    it("each outage is one StorageUnavailable and one storage-available-again, however many requests fail", async () => {
      const c = config()
      const { jar } = await signIn(c)
      for (let round = 1; round <= 2; round++) {
        await proxy.cut()
        const answers = await Promise.all(Array.from({ length: 5 }, () => readSession(c, jar)))
        for (const { response, body } of answers) expectUnavailable(response, body)
        await proxy.restore()
        expect((await readSession(c, jar)).response.status).toBe(200)
        expect(outageErrors()).toHaveLength(round)
        expect(backAgain()).toHaveLength(round)
      }
      expect(log.errors.map(typeOf)).toEqual(["StorageUnavailable", "StorageUnavailable"])
    })

    const watchIdle = subject.watchIdleConnections
    const restartTitle = watchIdle
      ? "a connection that dies with the server while idle is replaced: the read right after a restore with no request in between works"
      : "a restart with no request in between costs nothing: the read right after it works"
    it(restartTitle, async () => {
      const c = config()
      const { jar, user } = await signIn(c)
      let replaced = () => {}
      if (watchIdle) {
        // Fill the pool with idle connections, then cut and restore with nothing asked meanwhile.
        await Promise.all(Array.from({ length: 5 }, () => readSession(c, jar)))
        replaced = watchIdle()
      }
      await proxy.cut()
      await proxy.restore()
      const { response, body } = await readSession(c, jar)
      expect(response.status).toBe(200)
      expect(JSON.parse(body)).toMatchObject({ user: { name: user.name } })
      replaced()
      expect(log.errors).toEqual([])
    })
  })

  const jwt = subject.jwt
  if (jwt) {
    const needsNoDatabase = jwt === "sign-in needs no database"
    describe(title("JWT sessions during the outage"), () => {
      const jwtTitle = "reading the session needs no database: it answers 200 with the user while the proxy is cut"
      it(needsNoDatabase ? `${jwtTitle}, and so does a credentials sign-in` : jwtTitle, async () => {
        const c = config({ session: { strategy: "jwt" } })
        const { jar, user } = await signIn(c)
        await proxy.cut()
        try {
          for (let i = 0; i < 3; i++) {
            const { response, body } = await readSession(c, jar)
            expect(response.status).toBe(200)
            expect(JSON.parse(body)).toMatchObject({ user })
          }
          if (needsNoDatabase) {
            // The sign-in takes the app's word for the user, and no second-factor gate looks the
            // user up (the adapter has no store): nothing asks the database.
            const visitor = await signIn(c)
            expect(JSON.parse((await readSession(c, visitor.jar)).body)).toMatchObject({ user: { name: user.name } })
          } else {
            const attempt = await attemptSignIn(c, user)
            expectUnavailable(attempt.response, attempt.body)
          }
        } finally {
          await proxy.restore()
        }
        if (needsNoDatabase) {
          expect(log.errors).toEqual([])
          expect(warnings()).toEqual([])
          return
        }
        expect((await readSession(c, jar)).response.status).toBe(200)
        // The session read touched no storage: the outage ends with the next call that does.
        expect(warnings()).toEqual([])
        await signIn(c)
        expect(log.errors.map(typeOf)).toEqual(["StorageUnavailable"])
        expect(warnings()).toEqual(["storage-available-again"])
      })
    })
  }

  return outage
}

/** A TCP proxy that can freeze, from {@link freezingProxy}. */
export interface FreezingProxy {
  readonly port: number
  /** From now on, holds back what the server sends (connections stay open, new ones are taken). */
  freeze(): void
  /** Delivers what was held back, late, and lets the rest through. */
  thaw(): void
  close(): Promise<void>
}

/**
 * A TCP proxy that can freeze: while frozen it keeps every connection open (and takes new ones)
 * but holds back what the server sends, as a network partition looks to the client; thawed, it
 * delivers it, late, as TCP would once the partition heals.
 */
export async function freezingProxy(target: { host?: string; port: number }): Promise<FreezingProxy> {
  const sockets = new Set<Socket>()
  let frozen = false
  const held: Array<() => void> = []
  const server: Server = createServer((inbound) => {
    const outbound = connect(target.port, target.host ?? "127.0.0.1")
    sockets.add(inbound).add(outbound)
    const end = () => {
      inbound.destroy()
      outbound.destroy()
      sockets.delete(inbound)
      sockets.delete(outbound)
    }
    inbound.on("error", end).on("close", end)
    outbound.on("error", end).on("close", end)
    inbound.pipe(outbound)
    outbound.on("data", (chunk: Buffer) => {
      if (frozen) held.push(() => inbound.write(chunk))
      else inbound.write(chunk)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    port: (server.address() as { port: number }).port,
    freeze: () => void (frozen = true),
    thaw() {
      frozen = false
      for (const deliver of held.splice(0)) deliver()
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
