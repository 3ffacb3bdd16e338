/**
 * Who an email sign-in is for, as the `signIn` callback sees it: the stored user when the address
 * has one, else a user that does not exist yet (nothing is written here), and an account whose
 * `providerAccountId` is the address.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { CheckedAdapter } from "../adapters/wrap.js"
import { MissingAdapter } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import type { Account, User } from "../types.js"
import type { EmailConfig } from "./types.js"

export interface EmailIdentity {
  user: User | AdapterUser
  account: Account
}

/** The adapter, which the configuration guarantees for email providers. */
export function emailAdapter(ctx: RequestContext, provider: EmailConfig): CheckedAdapter {
  const { adapter } = ctx.config
  if (!adapter) throw new MissingAdapter(`The email provider "${provider.id}" stores tokens, so it needs an adapter.`)
  return adapter
}

export async function emailIdentity(ctx: RequestContext, provider: EmailConfig, email: string): Promise<EmailIdentity> {
  const stored = await emailAdapter(ctx, provider).getUserByEmail(email)
  const user: User | AdapterUser = stored ?? { id: crypto.randomUUID(), email, emailVerified: null }
  return { user, account: { provider: provider.id, type: "email", providerAccountId: email } }
}
