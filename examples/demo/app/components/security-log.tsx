/**
 * The home page's "Security log": the signed-in user's latest security events from `@sesame/audit`
 * (sign-ins and failed attempts on their account, changes, sessions ended, admin actions on them),
 * newest first, with where they came from.
 */
import type { AuditEntry } from "@sesame/audit"

const time = (date: Date) => new Date(date).toISOString().replace("T", " ").slice(0, 16) + " UTC"

export function SecurityLog({ entries, isAdmin, adminUrl }: { entries: AuditEntry[]; isAdmin: boolean; adminUrl: string }) {
  return (
    <section aria-labelledby="security-log-heading">
      <h2 id="security-log-heading">Security log</h2>
      {entries.length > 0 ? (
        <ul data-testid="security-log">
          {entries.map((entry) => (
            <li key={entry.id}>
              {time(entry.at)}: <code>{entry.type}</code>
              {entry.provider ? ` (${entry.provider})` : ""}{" "}
              <span className="muted">
                {entry.actorId && entry.actorId !== entry.userId ? "by someone else, " : ""}
                {entry.userAgent ? entry.userAgent.slice(0, 40) : "no browser"}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Nothing recorded yet.</p>
      )}
      {isAdmin ? (
        <p data-testid="admin-link">
          You are this demo&apos;s admin: <a href={adminUrl}>open the admin tools</a> to find users, suspend them, or see the app as one of them.
        </p>
      ) : null}
    </section>
  )
}
