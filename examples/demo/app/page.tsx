import Link from "next/link"
import { isStorageUnavailable } from "@sesame/next"
import { adminApi, auditApi, auditTrailApi, basePath, hasPassword, listAccounts, listPasskeys, listSessions, twoFactorStatus } from "../auth"
import { deletePasskeyAction, revokeSessionAction } from "./actions"
import { Accounts } from "./components/accounts"
import { AddPasskey } from "./components/add-passkey"
import { ApiTokenSection } from "./components/api-token"
import { PasswordSection } from "./components/password"
import { OtherAppsSection } from "./components/other-apps"
import { OutageSection } from "./components/outage"
import { Profile } from "./components/profile"
import { RecentSignIns } from "./components/recent-sign-ins"
import { SecurityLog } from "./components/security-log"
import { TwoFactorSection } from "./components/two-factor"
import { Unavailable } from "./components/unavailable"
import { sessionOrOutage } from "../lib/session"

// Sessions change with every sign-in: never serve this page from a cache.
export const dynamic = "force-dynamic"

const time = (date: Date | null) => (date ? date.toISOString().replace("T", " ").slice(0, 16) + " UTC" : "unknown")

/** What the actions' `?notice=` means: Sesame's refusals, and the end of a deletion. */
const notices: Record<string, { text: string; error: boolean }> = {
  LastSignInMethod: { text: "That passkey is your last way to sign in, so it was kept.", error: true },
  LastAccount: { text: "That account is your last way to sign in, so it stays linked. Link another one first.", error: true },
  // Rare since deleting asks to confirm who you are first (app/actions.ts), but Sesame checks again.
  SignInTooOld: { text: "Deleting your account needs a sign-in from the last 10 minutes. Sign out, sign in again, then delete it.", error: true },
  Deleted: { text: "Your account was deleted, and you are signed out.", error: false },
  LanguageSaved: { text: "Your language was saved.", error: false },
}

function Notice({ notice }: { notice: string | string[] | undefined }) {
  const message = typeof notice === "string" ? notices[notice] : undefined
  if (!message) return null
  return (
    <p role="status" data-testid="notice" className={message.error ? "error" : undefined}>
      {message.text}
    </p>
  )
}

export default async function Home({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await sessionOrOutage()
  // The database cannot be reached for a moment (the outage section below): not "signed out".
  if (isStorageUnavailable(session)) return <Unavailable error={session} retry="/" />
  const { notice, confirm, password: passwordOutcome, count } = await searchParams
  if (!session?.user) {
    return (
      <>
        <h1>Sesame demo</h1>
        <p data-testid="status">You are not signed in.</p>
        <Notice notice={notice} />
        <p>
          <a href={`${basePath}/signin?callbackUrl=/`}>Sign in</a> with the demo account’s password, the local OpenID
          provider, an emailed link or a passkey, or create an account with a password there. The console that started the app
          lists the test accounts.
        </p>
        <p>
          <Link href="/protected">The protected page</Link> asks you to sign in first.
        </p>
      </>
    )
  }

  const [sessions, passkeys, accounts, password, twoFactor, recent, log, isAdmin] = await Promise.all([
    listSessions(),
    listPasskeys(),
    listAccounts(),
    hasPassword(),
    twoFactorStatus(),
    auditTrailApi.recentSignIns({ limit: 5 }),
    auditApi.myAuditLog({ limit: 8 }),
    adminApi.isAdmin(),
  ])

  return (
    <>
      <h1>Sesame demo</h1>
      <p data-testid="status">
        Signed in as <strong>{session.user.name ?? session.user.email}</strong> ({session.user.email})
      </p>
      <Notice notice={notice} />
      <p>
        <Link href="/protected">Go to the protected page</Link>
      </p>
      <p>
        {/* Sesame's built-in account page: profile, email, password, passkeys, second factor, linked accounts, sessions, deletion. */}
        <a href={`${basePath}/account`} data-testid="account-page-link">
          Your account page
        </a>{" "}
        <span className="muted">(built in: the same settings as below, without a line of the app&apos;s code)</span>
      </p>
      <p data-testid="home-organization">
        {session.organization ? (
          <>
            Active organization: <strong>{session.organization.name}</strong> ({session.organization.roles.join(", ")}).{" "}
          </>
        ) : null}
        <Link href="/organizations">Your organizations</Link>: create one, invite people, pick the active one.
      </p>

      <Profile role={session.user.role} language={session.user.language} />

      <Accounts accounts={accounts ?? []} hasPassword={password === true} confirmDelete={confirm === "delete-account"} />

      <PasswordSection
        email={session.user.email}
        hasPassword={password === true}
        outcome={typeof passwordOutcome === "string" ? passwordOutcome : undefined}
        count={typeof count === "string" && /^\d{1,6}$/.test(count) ? Number(count) : undefined}
      />

      {/* Null when two-factor sign-in is off: the adapter would not store second factors. */}
      {twoFactor ? <TwoFactorSection status={twoFactor} /> : null}

      <ApiTokenSection />

      <OtherAppsSection basePath={basePath} />

      <section aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading">Passkeys</h2>
        {passkeys && passkeys.length > 0 ? (
          <ul data-testid="passkeys">
            {passkeys.map((passkey) => (
              <li key={passkey.id}>
                {passkey.name ?? "Passkey"} <span className="muted">added {time(passkey.createdAt)}, {passkey.deviceType === "multiDevice" ? "synced" : "this device only"}</span>{" "}
                <form action={deletePasskeyAction} className="inline-form">
                  <input type="hidden" name="id" value={passkey.id} />
                  <button type="submit">Delete</button>
                </form>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No passkeys yet.</p>
        )}
        <AddPasskey basePath={basePath} />
      </section>

      <RecentSignIns entries={recent ?? []} />

      <SecurityLog entries={log?.events ?? []} isAdmin={isAdmin} adminUrl={`${basePath}/admin`} />

      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Active sessions</h2>
        <table data-testid="sessions">
          <thead>
            <tr>
              <th>Browser</th>
              <th>Started</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {(sessions ?? []).map((s) => (
              <tr key={s.id} data-current={s.current ? "true" : "false"}>
                <td>
                  {s.userAgent ?? "unknown"} {s.current ? <span className="badge">this browser</span> : null}
                </td>
                <td>{time(s.createdAt)}</td>
                <td>{time(s.lastUsedAt)}</td>
                <td>
                  <form action={revokeSessionAction}>
                    <input type="hidden" name="id" value={s.id} />
                    <button type="submit" aria-label={s.current ? "Revoke this session" : "Revoke session"}>
                      Revoke
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <OutageSection />
    </>
  )
}
