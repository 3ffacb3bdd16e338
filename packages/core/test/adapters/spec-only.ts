/**
 * An adapter written to the spec's contract and nothing more: the memory adapter seen through the
 * spec's 19 operations (no `transaction`, no session management, no `listAccountsByUserId`, no
 * `deleteAuthenticator`...), as Auth.js's published adapters are.
 */
import { MemoryAdapter, type Adapter } from "@sesame/core/adapters"

/** The spec's adapter operations, all of them and only them. */
export const specMethods = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "deleteUser",
  "linkAccount",
  "unlinkAccount",
  "getAccount",
  "createSession",
  "getSessionAndUser",
  "updateSession",
  "deleteSession",
  "createVerificationToken",
  "useVerificationToken",
  "createAuthenticator",
  "getAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
] as const satisfies readonly (keyof Adapter)[]

export type SpecAdapter = Pick<Required<Adapter>, (typeof specMethods)[number]>

/** A memory adapter seen through the spec's operations only; its tables, for assertions. */
export function specOnlyAdapter() {
  const memory = MemoryAdapter()
  const adapter = Object.fromEntries(specMethods.map((name) => [name, (memory[name] as (...args: unknown[]) => unknown).bind(memory)])) as SpecAdapter
  return { adapter, tables: memory.tables }
}
