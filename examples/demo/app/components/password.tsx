/**
 * The home page's "Password" section. A user with a password (`hasPassword()`) gets a form to
 * change it (`changePassword`: the current password, then the new one; the user's other sessions
 * end); a user who signed up another way gets a form to set a first one (`setPassword`, which
 * Sesame allows only shortly after a sign-in, so that a session left open cannot add a way in).
 *
 * The actions come back with `?password=<outcome>[&count=N]`, said here in words; an outcome not
 * in the list shows nothing, so nothing from the URL is ever echoed.
 */
import { minPasswordLength } from "../../lib/providers"
import { changePasswordAction, setPasswordAction } from "../actions"

type Outcome = { error: boolean; text: (count: number | undefined) => string }

const outcomes: Record<string, Outcome> = {
  changed: {
    error: false,
    text: (ended = 0) =>
      ended === 0
        ? "Your password was changed. You had no other sessions to sign out."
        : `Your password was changed, and ${ended} other ${ended === 1 ? "session was" : "sessions were"} signed out.`,
  },
  set: { error: false, text: () => "Your password is set: you can now sign in with your email address and this password." },
  WrongPassword: { error: true, text: () => "Your current password is not right, so nothing changed." },
  TooManyAttempts: {
    error: true,
    text: (wait) => `Too many wrong passwords for this account: wait ${wait === undefined ? "a moment" : `${wait} ${wait === 1 ? "second" : "seconds"}`}, then try again.`,
  },
  "too-short": { error: true, text: () => `That new password is too short: use at least ${minPasswordLength} characters.` },
  "too-long": { error: true, text: () => "That new password is too long: use fewer characters." },
  "matches-context": { error: true, text: () => "Don’t use your email address or the site’s name as your password." },
  breached: { error: true, text: () => "That password has appeared in a data breach, so attackers try it. Choose another one." },
  NoPassword: { error: true, text: () => "You have no password yet: set one below." },
  HasPassword: { error: true, text: () => "You have a password already: change it below." },
  SignInTooOld: {
    error: true,
    text: () => "Setting a first password needs a sign-in from the last 10 minutes. Sign out, sign in again, then set it.",
  },
}

function Result({ outcome, count }: { outcome: string | undefined; count: number | undefined }) {
  const found = outcome !== undefined && Object.hasOwn(outcomes, outcome) ? outcomes[outcome]! : undefined
  if (!found) return null
  return (
    <p role={found.error ? "alert" : "status"} className={found.error ? "error" : undefined} data-testid="password-result">
      {found.text(count)}
    </p>
  )
}

/** The new-password field with its hint. */
function NewPassword({ label }: { label: string }) {
  return (
    <>
      <label htmlFor="new-password">{label}</label>
      <input id="new-password" name="newPassword" type="password" autoComplete="new-password" required minLength={minPasswordLength} aria-describedby="new-password-hint" />
      <p id="new-password-hint" className="muted">
        At least {minPasswordLength} characters; any characters, spaces too. A few unrelated words make a strong password.
      </p>
    </>
  )
}

export function PasswordSection({ email, hasPassword, outcome, count }: { email: string | null | undefined; hasPassword: boolean; outcome: string | undefined; count: number | undefined }) {
  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <Result outcome={outcome} count={count} />
      {!email ? (
        <p className="muted">Your user has no email address, so it cannot have a password.</p>
      ) : hasPassword ? (
        <form action={changePasswordAction} className="fields" data-testid="change-password">
          {/* For password managers: the account the new password belongs to. */}
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
          <label htmlFor="current-password">Current password</label>
          <input id="current-password" name="currentPassword" type="password" autoComplete="current-password" required />
          <NewPassword label="New password" />
          <button type="submit">Change password</button>
        </form>
      ) : (
        <form action={setPasswordAction} className="fields" data-testid="set-password">
          <p>You have no password yet. Set one, and you can also sign in with your email address and that password.</p>
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
          <NewPassword label="Password" />
          <button type="submit">Set password</button>
        </form>
      )}
    </section>
  )
}
