/**
 * A virtual user: one account, and a loop of visits until the run stops. Each visit: browser A
 * signs in (credentials or an email link, half and half; an emailed link is opened on another
 * instance than the one that sent it half of the time), checks its session a few times on random
 * instances, sometimes updates it (and checks the update on another instance), then its session
 * ends in one of three ways: A signs out; or a second browser B of the same user signs in and
 * revokes A's session (found in its list by A's User-Agent), or all sessions but its own. Then A's
 * old token is replayed on every instance (any user it gets back is "wrongly accepted"), B is
 * checked on every instance (a null is "lost"), signs out, and its old token is replayed too.
 *
 * Every step that goes wrong is recorded as a failed request of its kind, labelled by what it
 * answered ("302→error=Configuration" for a sign-in, "200 null" for a live session), besides the
 * visit's error or the lost or wrongly accepted session it makes.
 */
import { answerLabel, Browser, sessionCookie } from "./browser.mjs"
import { Recorded } from "./stats.mjs"

/** Thrown once a lost or wrongly accepted session is counted: ends the visit without counting an error too. */
class Counted extends Error {}

const password = "open sesame"
/** The address of virtual user `id`, whose account exists before the run (see database.mjs). */
export const userEmail = (id) => `vu-${id}@soak.example`
const random = (items) => items[Math.floor(Math.random() * items.length)]
/** An instance other than `instance`, when there is one. */
const another = (instances, instance) => random(instances.length > 1 ? instances.filter((i) => i !== instance) : instances)
const chance = (p) => Math.random() < p

class Visit {
  /** @param {{ id: number, phase: string, instances: any[], stats: import("./stats.mjs").Stats }} user @param {number} n */
  constructor({ id, phase, instances, stats }, n) {
    this.instances = instances
    this.stats = stats
    this.email = userEmail(id)
    this.label = `user ${id}, ${phase} visit ${n}`
  }

  browser(name) {
    return new Browser(this.stats, `soak ${this.label}, browser ${name}`)
  }

  /** Records the last request of `browser` as a failed `kind` step labelled `label`; ends the visit as an error. */
  fail(browser, label, kind, message) {
    this.stats.failure(label, kind, browser.last)
    return new Recorded(`${this.label}: ${message}`)
  }

  /** A live session read as absent: a failed request, and a lost session. */
  lose(browser, label, kind, message) {
    this.stats.failure(label, kind, browser.last)
    this.stats.lose(`${this.label}: ${message}`)
    return new Counted()
  }

  /** A session answered for someone it is not (or no longer) theirs: a failed request, and a wrongly accepted session. */
  accept(browser, label, kind, message) {
    this.stats.failure(label, kind, browser.last)
    this.stats.accept(`${this.label}: ${message}`)
    return new Counted()
  }

  async signInWithCredentials(browser, instance) {
    const { origin } = instance
    const csrfToken = await browser.csrf(origin)
    const answer = await browser.request("sign-in credentials", `${origin}/auth/callback/credentials`, {
      form: { csrfToken, email: this.email, password, callbackUrl: `${origin}/welcome` },
      expect: [302],
    })
    if (answer.location !== `${origin}/welcome`) {
      throw this.fail(browser, answerLabel(answer.status, answer.location), "sign-in credentials", `sign-in credentials on ${origin} went to ${answer.location}`)
    }
    this.stats.count("sign-ins with credentials")
  }

  async signInWithEmail(browser, sender) {
    const csrfToken = await browser.csrf(sender.origin)
    const asked = await browser.request("sign-in email", `${sender.origin}/auth/signin/email`, {
      form: { csrfToken, email: this.email, callbackUrl: `${sender.origin}/welcome` },
      expect: [302],
    })
    if (!asked.location?.includes("/auth/verify-request")) {
      throw this.fail(browser, answerLabel(asked.status, asked.location), "sign-in email", `sign-in email on ${sender.origin} went to ${asked.location}`)
    }
    const mail = await sender.mail(this.email).catch((error) => {
      throw this.fail(browser, "no email sent", "sign-in email", error.message)
    })
    const opener = chance(0.5) ? sender : another(this.instances, sender)
    const link = new URL(mail.url)
    const confirmed = await browser.submit("email link", `${opener.origin}${link.pathname}${link.search}`)
    if (/[?&]error=/.test(confirmed.location ?? "")) {
      const message = `the email link from ${sender.origin}, opened on ${opener.origin}, went to ${confirmed.location}`
      throw this.fail(browser, answerLabel(confirmed.status, confirmed.location), "email link", message)
    }
    this.stats.count(opener === sender ? "sign-ins by email, link opened on the sending instance" : "sign-ins by email, link opened on another instance")
  }

  /** Signs `browser` in through a random instance, one way or the other; returns its session token. */
  async signIn(browser) {
    const instance = random(this.instances)
    if (chance(0.5)) await this.signInWithCredentials(browser, instance)
    else await this.signInWithEmail(browser, instance)
    const token = browser.cookies.get(sessionCookie)
    if (!token) throw this.fail(browser, "no session cookie", "sign-in", "signed in without a session cookie")
    return token
  }

  /** The session must be this user's on `instance`. */
  async expectLive(browser, instance, name) {
    const session = await browser.session(instance.origin)
    if (session === null) throw this.lose(browser, "200 null", "session", `browser ${name}'s live session answered null on ${instance.name}`)
    if (session.user?.email !== this.email) {
      throw this.accept(browser, "200 another user", "session", `browser ${name}'s session answered ${JSON.stringify(session.user)} on ${instance.name}`)
    }
    return session
  }

  /** An ended session's token, replayed on every instance, must answer null on each. */
  async expectEnded(token, name) {
    const replay = this.browser(`${name} (replayed)`)
    const acceptedBy = []
    for (const instance of this.instances) {
      replay.cookies.set(sessionCookie, token)
      if ((await replay.session(instance.origin, "session (ended)")) === null) continue
      acceptedBy.push(instance.name)
      this.stats.failure("200 accepted", "session (ended)", replay.last)
    }
    if (acceptedBy.length) this.stats.accept(`${this.label}: browser ${name}'s ended session was accepted on ${acceptedBy.join(", ")}`)
  }

  async update(browser) {
    const at = random(this.instances)
    const name = `${this.label} ${crypto.randomUUID().slice(0, 8)}`
    const csrfToken = await browser.csrf(at.origin)
    const updated = (await browser.request("update", `${at.origin}/auth/session`, { json: { csrfToken, data: { name } } })).json()
    if (updated === null) throw this.lose(browser, "200 null", "update", `the update on ${at.name} answered null`)
    if (updated.user?.name !== name) throw this.fail(browser, "200 not updated", "update", `the update on ${at.name} answered the name ${updated.user?.name}`)
    const elsewhere = another(this.instances, at)
    const seen = await this.expectLive(browser, elsewhere, "A")
    if (seen.user.name !== name) throw this.fail(browser, "200 old name", "session", `the update on ${at.name} is not seen on ${elsewhere.name} (${seen.user.name})`)
    this.stats.count("updates")
  }

  async signOut(browser) {
    const { origin } = random(this.instances)
    const csrfToken = await browser.csrf(origin)
    await browser.request("sign-out", `${origin}/auth/signout`, { form: { csrfToken }, expect: [302] })
    if (browser.cookies.has(sessionCookie)) throw this.fail(browser, "302 kept the session cookie", "sign-out", `the sign-out on ${origin} left the session cookie`)
  }

  /** B revokes A's session: the one its list shows with A's User-Agent. */
  async revokeFrom(b, a) {
    const at = random(this.instances)
    // 401: the app found no session for B, which is live.
    const list = await b.request("list sessions", `${at.origin}/app/sessions`, { expect: [200, 401] })
    if (list.status === 401) throw this.lose(b, "401 no session", "list sessions", `browser B's live session was not found on ${at.name}`)
    const listed = list.json()
    const target = listed.find((s) => s.userAgent === a.userAgent)
    if (!target) throw this.fail(b, "200 without A's session", "list sessions", `browser A's session is not in the list of ${listed.length}`)
    const answer = await b.request("revoke", `${random(this.instances).origin}/app/revoke`, { json: { id: target.id } })
    const { revoked } = answer.json()
    // As for "revoke others" below: after a 503, the session may have been revoked already.
    if (revoked !== true && !(answer.retried && revoked === false)) throw this.fail(b, `200 revoked ${revoked}`, "revoke", `revoking browser A's session answered ${revoked}`)
    this.stats.count("revocations of one session")
  }

  async revokeOthersFrom(b) {
    const revoked = await b.request("revoke others", `${random(this.instances).origin}/app/revoke-others`, { json: {} })
    const { ended } = revoked.json()
    // After a 503, the attempt that got it may have ended A's session already (its answer was cut
    // off): 0 is then right. Either way, A's token is replayed below and must be refused.
    if (!(ended >= 1) && !(revoked.retried && ended === 0)) throw this.fail(b, `200 ended ${ended}`, "revoke others", `revoking the other sessions ended ${ended}`)
    this.stats.count("revocations of all other sessions")
  }

  async run() {
    const a = this.browser("A")
    const aToken = await this.signIn(a)
    const checks = 2 + Math.floor(Math.random() * 4)
    for (let i = 0; i < checks; i++) await this.expectLive(a, random(this.instances), "A")
    if (chance(0.3)) await this.update(a)

    const ending = random(["sign-out", "revoke", "revoke others"])
    if (ending === "sign-out") {
      await this.signOut(a)
      this.stats.count("sign-outs")
      await this.expectEnded(aToken, "A")
      return
    }
    const b = this.browser("B")
    const bToken = await this.signIn(b)
    if (ending === "revoke") await this.revokeFrom(b, a)
    else await this.revokeOthersFrom(b)
    await this.expectEnded(aToken, "A")
    for (const instance of this.instances) await this.expectLive(b, instance, "B")
    await this.signOut(b)
    this.stats.count("sign-outs")
    await this.expectEnded(bToken, "B")
  }
}

/** Runs visits for user `id` until `running()` turns false (the visit under way is finished). */
export async function virtualUser({ id, phase, instances, stats, running }) {
  for (let n = 1; running(); n++) {
    try {
      await new Visit({ id, phase, instances, stats }, n).run()
      stats.count("visits")
    } catch (error) {
      if (error instanceof Counted) continue
      // Anything not recorded where it happened (a check of the workload's own) is a failed step too.
      if (!(error instanceof Recorded)) stats.failure("check failed", "visit", { start: performance.now(), end: performance.now() })
      stats.error(error.message)
      // Not a tight loop of failures when an instance is down.
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}
