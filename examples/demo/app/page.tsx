import { listPasskeys, listSessions } from "@sesame/core"
import Link from "next/link"
import { auth, basePath, config } from "../auth"
import { adapter } from "../lib/store"
import { browserRequest } from "../lib/request"
import { deletePasskeyAction, revokeSessionAction } from "./actions"
import { AddPasskey } from "./components/add-passkey"

// Sessions change with every sign-in: never serve this page from a cache.
export const dynamic = "force-dynamic"

const time = (date: Date | null) => (date ? date.toISOString().replace("T", " ").slice(0, 16) + " UTC" : "unknown")

const notices: Record<string, string> = {
  LastSignInMethod: "That passkey is your last way to sign in, so it was kept.",
}

export default async function Home({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await auth()
  const { notice } = await searchParams
  if (!session?.user) {
    return (
      <>
        <h1>Sesame demo</h1>
        <p data-testid="status">You are not signed in.</p>
        <p>
          <a href={`${basePath}/signin?callbackUrl=/`}>Sign in</a> with the demo account, the local OpenID provider, an
          emailed link or a passkey. The console that started the app lists the test accounts.
        </p>
        <p>
          <Link href="/protected">The protected page</Link> asks you to sign in first.
        </p>
      </>
    )
  }

  const request = await browserRequest()
  const userId = (session.user as { id?: string }).id
  const [sessions, passkeys, accounts] = await Promise.all([
    listSessions(request, config),
    listPasskeys(request, config),
    userId ? adapter.listAccountsByUserId!(userId) : [],
  ])
  // Passkeys have their own section below.
  const linked = accounts.filter((account) => account.type !== "webauthn")
  const message = typeof notice === "string" ? notices[notice] : undefined

  return (
    <>
      <h1>Sesame demo</h1>
      <p data-testid="status">
        Signed in as <strong>{session.user.name ?? session.user.email}</strong> ({session.user.email})
      </p>
      {message ? (
        <p role="status" className="error">
          {message}
        </p>
      ) : null}
      <p>
        <Link href="/protected">Go to the protected page</Link>
      </p>

      <section aria-labelledby="accounts-heading">
        <h2 id="accounts-heading">Linked accounts</h2>
        {linked.length === 0 ? (
          <p className="muted">No accounts of identity providers are linked to this user.</p>
        ) : (
          <table data-testid="accounts">
            <thead>
              <tr>
                <th>Provider</th>
                <th>Type</th>
                <th>Account id</th>
              </tr>
            </thead>
            <tbody>
              {linked.map((account) => (
                <tr key={`${account.provider}:${account.providerAccountId}`}>
                  <td>{account.provider}</td>
                  <td>{account.type}</td>
                  <td>{account.providerAccountId}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading">Passkeys</h2>
        {passkeys && passkeys.length > 0 ? (
          <ul data-testid="passkeys">
            {passkeys.map((passkey) => (
              <li key={passkey.id}>
                {passkey.name ?? "Passkey"} <span className="muted">added {time(passkey.createdAt)}, {passkey.deviceType === "multiDevice" ? "synced" : "this device only"}</span>{" "}
                <form action={deletePasskeyAction} style={{ display: "inline" }}>
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
    </>
  )
}
