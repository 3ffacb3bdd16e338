/**
 * The home page's "Two-factor authentication" section: whether the signed-in user's sign-ins ask
 * for a second factor (Sesame's `twoFactorStatus`), which one, how many recovery codes are left,
 * and a link to Sesame's built-in settings page, where it is turned on, off, or given new
 * recovery codes. The demo has no settings of its own: that page asks for a recent sign-in and
 * a current code itself.
 */
import type { TwoFactorStatus } from "@sesame/core"

const methods: Record<NonNullable<TwoFactorStatus["method"]>, string> = {
  totp: "a code from an authenticator app",
  email: "a code sent by email",
}

/** Few enough that the user should make new ones before they run out. */
const lowOnCodes = 3

export function TwoFactorSection({ status }: { status: TwoFactorStatus }) {
  const { enabled, method, recoveryCodesLeft, settingsUrl } = status
  return (
    <section aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">Two-factor authentication</h2>
      {enabled ? (
        <>
          <p data-testid="two-factor-status" data-enabled="true">
            <strong>On</strong>: after your password, an emailed link or an identity provider, signing in asks for{" "}
            {method ? methods[method] : "a second factor"}, or one of your recovery codes.
          </p>
          <p data-testid="recovery-codes-left" className={recoveryCodesLeft <= lowOnCodes ? "error" : undefined}>
            {recoveryCodesLeft} recovery {recoveryCodesLeft === 1 ? "code" : "codes"} left
            {recoveryCodesLeft <= lowOnCodes ? ": make new ones before you run out." : "."}
          </p>
          <p>
            <a href={settingsUrl}>Manage two-factor authentication</a>
          </p>
        </>
      ) : (
        <>
          <p data-testid="two-factor-status" data-enabled="false">
            <strong>Off</strong>: anyone with your password, or access to your email, can sign in as you.
          </p>
          <p>
            <a href={settingsUrl}>Turn on two-factor authentication</a>{" "}
            <span className="muted">with an authenticator app or codes by email. Passkey sign-ins skip it: a passkey is two factors already.</span>
          </p>
        </>
      )}
    </section>
  )
}
