/**
 * The home page's "Recent sign-ins": what the audit-trail plugin recorded for the signed-in user,
 * newest first, so that a sign-in they did not make stands out.
 */
import type { SignInEntry } from "@sesame/plugin-audit-trail"

const time = (date: Date) => new Date(date).toISOString().replace("T", " ").slice(0, 16) + " UTC"

export function RecentSignIns({ entries }: { entries: SignInEntry[] }) {
  return (
    <section aria-labelledby="recent-heading">
      <h2 id="recent-heading">Recent sign-ins</h2>
      {entries.length > 0 ? (
        <ul data-testid="recent-sign-ins">
          {entries.map((entry) => (
            <li key={`${time(entry.at)}-${entry.provider}-${String(entry.at)}`}>
              {time(entry.at)}: {entry.provider} <span className="muted">({entry.kind}{entry.newUser ? ", account created" : ""})</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None recorded yet.</p>
      )}
    </section>
  )
}
