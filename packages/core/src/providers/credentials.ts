/**
 * The credentials provider: sign in with fields your app checks itself.
 *
 * @example
 * ```ts
 * import Credentials from "@sesame/core/providers/credentials"
 *
 * Credentials({
 *   credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
 *   async authorize({ email, password }) {
 *     const user = await findUser(String(email))
 *     return user && (await verifyPassword(user, String(password))) ? user : null
 *   },
 * })
 * ```
 *
 * @module
 */
import type { CredentialInput, CredentialsConfig } from "../credentials/types.js"

export type { CredentialInput, CredentialsConfig } from "../credentials/types.js"

/** Options of `Credentials()`: `authorize` is required; `id` defaults to `credentials`. */
export type CredentialsOptions<Fields extends Record<string, CredentialInput> = Record<string, CredentialInput>> = Partial<
  Omit<CredentialsConfig<Fields>, "type" | "authorize">
> &
  Pick<CredentialsConfig<Fields>, "authorize">

export default function Credentials<Fields extends Record<string, CredentialInput> = Record<string, CredentialInput>>(
  options: CredentialsOptions<Fields>,
): CredentialsConfig<Fields> {
  return {
    id: "credentials",
    name: "Credentials",
    credentials: {} as Fields,
    ...options,
    type: "credentials",
  }
}
