/**
 * The findings of `sesame migrate --from authjs --check` in plain sentences: what the switch
 * changes for the database's users, what the app must do before it, and what blocks it.
 *
 * @module
 */
import type { Findings } from "./findings.js"
import type { AuthjsData } from "./read.js"

/** At most this many groups of colliding addresses are listed; the rest are counted. */
const listedCollisions = 20

/** `1 user`, `2 users`. */
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

export interface Report {
  lines: string[]
  /** Why the switch is blocked; empty when nothing blocks it. */
  blockers: string[]
}

/** Where the tables were read, for the first line. */
export interface Source {
  kind: string
  server: string
}

export function report(data: AuthjsData, f: Findings, source: Source): Report {
  const lines: string[] = []
  const blockers: string[] = []
  const out = (line = "") => lines.push(line)
  const tables = Object.values(data.tables).join(", ")
  out(`Read the Auth.js tables ${tables}${data.layout ? ` (the names of ${data.layout})` : ""} of the ${source.kind} database at ${source.server}; nothing was written.`)

  out()
  out(`Users: ${f.users}.`)
  if (f.unverifiedWithProvider > 0) {
    out(
      `- ${count(f.unverifiedWithProvider, "user signs", "users sign")} in with a provider and ${f.unverifiedWithProvider === 1 ? "has an address" : "have addresses"} Auth.js never verified (emailVerified is null, as Auth.js stores every OAuth user): Sesame treats them as Auth.js did, keeps their provider accounts, and marks the address verified the first time they follow an email link.`,
    )
  }
  if (f.verifiedWithProvider > 0) out(`- ${count(f.verifiedWithProvider, "user signs", "users sign")} in with a provider and ${f.verifiedWithProvider === 1 ? "has a verified address" : "have verified addresses"}.`)
  if (f.passkeyOnly > 0) out(`- ${count(f.passkeyOnly, "user has", "users have")} a passkey and no provider account.`)
  if (f.addressOnly.verified > 0) {
    out(`- ${count(f.addressOnly.verified, "user has", "users have")} only a verified address (they signed in by email link): they need an email provider in Sesame's configuration.`)
  }
  if (f.addressOnly.unverified > 0) {
    out(`- ${count(f.addressOnly.unverified, "user has", "users have")} only an address that was never verified: an email link signs them in and marks it verified.`)
  }
  if (f.noWayIn > 0) {
    out(`- ${count(f.noWayIn, "user has", "users have")} no way in that Sesame knows of (no provider account, no passkey, no address): only a Credentials provider of the app's own can sign them in.`)
  }
  if (f.withoutAddress > 0) {
    out(`${count(f.withoutAddress, "user has", "users have")} no address: Sesame's own tables require one, so keep Auth.js's adapter while ${f.withoutAddress === 1 ? "that user exists" : "they exist"}.`)
  }

  out()
  if (f.providers.length === 0) out("Provider accounts: none.")
  else {
    const accounts = f.providers.reduce((n, p) => n + p.accounts, 0)
    out(
      `Provider accounts: ${accounts}, under ${count(f.providers.length, "provider id")}. Sesame finds an account by its provider id: configure each of these under the same id (an id that changes, or a provider left out, takes that way in from its users).`,
    )
    for (const p of f.providers) out(`- ${p.id}: ${count(p.accounts, "account")} of ${count(p.users, "user")} (${p.types.join(", ")})`)
  }
  if (f.passkeys !== undefined) out(`Passkeys: ${f.passkeys} in ${data.tables.authenticators}.`)

  out()
  const s = f.sessions
  if (!s) out(`Database sessions: no sessions table (an app with JWT sessions only needs none).`)
  else {
    out(`Database sessions: ${s.live} live, ${s.expired} expired (ignored).`)
    const carry = (n: number) => (n === 1 ? "carries" : "carry")
    if (s.uuid > 0) {
      out(
        `- ${count(s.uuid, "session")} of Auth.js v5 (UUID tokens) ${carry(s.uuid)} over with migrateFrom: "authjs": found on first use and re-keyed to Sesame's hash, ${s.uuid === 1 ? "its user stays" : "their users stay"} signed in.`,
      )
    }
    if (s.other > 0) {
      out(`- ${count(s.other, "session")} with tokens of the app's own generateSessionToken ${carry(s.other)} over with migrateFrom: "authjs" as Auth.js v5's do.`)
    }
    if (s.hashForm > 0) {
      out(
        `- ${count(s.hashForm, "session")} whose ${s.hashForm === 1 ? "token is" : "tokens are"} 64 hex digits (Auth.js v4's, or the app's own generateSessionToken) ${s.hashForm === 1 ? "does" : "do"} not carry over: such a token cannot be told apart from a hash Sesame stores, so it is never looked up as it is. ${s.hashForm === 1 ? "Its user signs" : "Their users sign"} in again.`,
      )
    }
    if (s.unusable > 0) {
      out(
        `- ${count(s.unusable, "session")} whose ${s.unusable === 1 ? "token is" : "tokens are"} not 1 to 512 visible ASCII characters (never Auth.js's) ${s.unusable === 1 ? "does" : "do"} not carry over.`,
      )
    }
    if (s.live > 0) {
      out(`- Without migrateFrom: "authjs", ${s.live === 1 ? "that session ends and its user signs" : `${s.live === 2 ? "both" : `all ${s.live}`} end and their users sign`} in again.`)
    }
  }
  out(`JWT sessions are in the browsers' cookies, not here: with migrateFrom: "authjs" and the same AUTH_SECRET, Sesame reads Auth.js's session cookies and re-issues them as its own.`)

  out()
  const t = f.verificationTokens
  if (!t) out("Email links: no verification token table (no email provider).")
  else {
    out(
      `Email links: ${t.live} still valid, ${t.expired} expired.${t.live > 0 ? ` With migrateFrom: "authjs" and the same AUTH_SECRET, the links Auth.js sent keep working until they expire; without it they fail, and their users ask for new ones.` : ""}`,
    )
  }

  if (f.sesameRows > 0) {
    out(
      `Sesame has run on this database already: ${count(f.sesameRows, "row")} of its own ${f.sesameRows === 1 ? "is" : "are"} among the verification tokens, and the counts above may include its sessions.`,
    )
  }

  out()
  if (f.collisions.length === 0 && f.unnormalised === 0) out("Addresses: no two users share an address once Sesame normalises it (Unicode NFKC, trimmed, lower case).")
  if (f.collisions.length > 0) {
    const people = f.collisions.reduce((n, c) => n + c.users.length, 0)
    out(`Addresses: ${people} users share an address with another once Sesame normalises it (Unicode NFKC, trimmed, lower case), in ${count(f.collisions.length, "group")}:`)
    for (const c of f.collisions.slice(0, listedCollisions)) out(`- ${c.address}: ${c.users.map((u) => `user ${u.id} (${u.email})`).join(", ")}`)
    if (f.collisions.length > listedCollisions) out(`- and ${count(f.collisions.length - listedCollisions, "more group")}`)
    out(
      "Sesame sees one mailbox in each group: an email link reaches only the user whose address is stored exactly as normalised (or none of them), and the others lose that way in.",
    )
    blockers.push(`${people} users share an address with another once addresses are normalised`)
  }
  if (f.unnormalised > 0) {
    out(
      `${count(f.unnormalised, "address is", "addresses are")} stored otherwise than Sesame normalises ${f.unnormalised === 1 ? "it" : "them"} (and collide${f.unnormalised === 1 ? "s" : ""} with no other): Sesame looks users up by the normalised address, so where text compares exactly it never finds ${f.unnormalised === 1 ? "that user" : "those users"} by address, and an email link makes a new user.`,
    )
  }

  out()
  out("Before the switch:")
  const steps: string[] = []
  if (f.collisions.length > 0) {
    steps.push(`Merge each group of users above into one (move the accounts and sessions to the user kept, delete the others), or give them different addresses.`)
  }
  steps.push("Keep AUTH_SECRET (and AUTH_SECRET_1…3) as they are: Auth.js's session cookies and email links are sealed with them.")
  steps.push(`Set migrateFrom: "authjs" in Sesame's configuration, and keep the session strategy Auth.js had, or everyone signed in signs in again.`)
  if (f.providers.length > 0) steps.push(`Configure the providers ${f.providers.map((p) => p.id).join(", ")} under these same ids.`)
  if (f.addressOnly.verified + f.addressOnly.unverified > 0) {
    steps.push(`Configure an email provider: ${count(f.addressOnly.verified + f.addressOnly.unverified, "user has", "users have")} no other way in.`)
  }
  if (f.noWayIn > 0) steps.push(`Keep a Credentials provider that knows the ${count(f.noWayIn, "user")} with no way in Sesame knows of.`)
  if (f.unnormalised > 0) steps.push(`Rewrite the ${count(f.unnormalised, "address", "addresses")} stored otherwise than normalised to the normalised form.`)
  steps.forEach((step, i) => out(`${i + 1}. ${step}`))

  out()
  out(blockers.length === 0 ? "Nothing blocks the switch." : `The switch is blocked: ${blockers.join("; ")} (step 1).`)
  return { lines, blockers }
}
