/**
 * The home page's "Accounts" section: the identity-provider accounts linked to the signed-in user
 * (Sesame's `listAccounts`), each with an Unlink button; a button per identity provider to link
 * one more (a sign-in with it while signed in); and deleting the user, behind a confirmation step
 * (`?confirm=delete-account`, so that it works without JavaScript and from the keyboard).
 */
import type { AccountInfo } from "@sesame/core"
import { linkableProviders } from "../../lib/providers"
import { deleteUserAction, linkAccountAction, unlinkAccountAction } from "../actions"

export function Accounts({ accounts, hasPassword, confirmDelete }: { accounts: AccountInfo[]; hasPassword: boolean; confirmDelete: boolean }) {
  // Passkeys have their own section.
  const linked = accounts.filter((account) => account.type !== "webauthn")
  return (
    <section aria-labelledby="accounts-heading">
      <h2 id="accounts-heading">Accounts</h2>
      {hasPassword ? <p data-testid="password-way-in">You can sign in with your password.</p> : null}
      {linked.length === 0 ? (
        <p className="muted">No accounts of identity providers are linked to this user.</p>
      ) : (
        <table data-testid="accounts">
          <thead>
            <tr>
              <th>Provider</th>
              <th>Type</th>
              <th>Account id</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {linked.map((account) => (
              <tr key={`${account.provider}:${account.providerAccountId}`}>
                <td>
                  {account.providerName} <span className="muted">({account.provider})</span>
                </td>
                <td>{account.type}</td>
                <td>{account.providerAccountId}</td>
                <td>
                  <form action={unlinkAccountAction}>
                    <input type="hidden" name="provider" value={account.provider} />
                    <input type="hidden" name="providerAccountId" value={account.providerAccountId} />
                    <button type="submit" aria-label={`Unlink ${account.providerName} account ${account.providerAccountId}`}>
                      Unlink
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {linkableProviders.map((provider) => (
        <form key={provider.id} action={linkAccountAction} className="inline">
          <input type="hidden" name="provider" value={provider.id} />
          <button type="submit">Link {provider.name}</button>
        </form>
      ))}

      <h3 id="delete-heading">Delete account</h3>
      {confirmDelete ? (
        <form action={deleteUserAction} role="group" aria-labelledby="delete-heading" data-testid="confirm-delete">
          <p className="error">
            This deletes your user with its linked accounts, passkeys, password and sessions. It cannot be undone.
          </p>
          <button type="submit">Yes, delete my account</button> <a href="/">Cancel</a>
        </form>
      ) : (
        <form action="/" method="get">
          <input type="hidden" name="confirm" value="delete-account" />
          <button type="submit">Delete account…</button>
        </form>
      )}
    </section>
  )
}
