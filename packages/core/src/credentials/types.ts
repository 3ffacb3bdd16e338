/**
 * Types of the credentials provider kind.
 *
 * @module
 */
import type { Awaitable, CommonProviderOptions, User } from "../types.js"

/** One field of the generated sign-in form. */
export interface CredentialInput {
  label?: string
  /** The `<input type>`. Default `text`. */
  type?: string
  placeholder?: string
  /** The `autocomplete` attribute, e.g. `username`, `current-password`. */
  autocomplete?: string
  required?: boolean
  value?: string
}

/** A provider that signs users in with an app-defined `authorize` function. */
export interface CredentialsConfig<Fields extends Record<string, CredentialInput> = Record<string, CredentialInput>>
  extends CommonProviderOptions {
  type: "credentials"
  /** The fields of the sign-in form, by name. */
  credentials: Fields
  /**
   * Checks the submitted fields and returns the user, or null (or throws `CredentialsSignin`) to
   * refuse. Any other throw is a server error: logged in full, shown as `Configuration`.
   */
  authorize: (credentials: Partial<Record<keyof Fields, unknown>>, request: Request) => Awaitable<User | null>
  /**
   * Database sessions: create the user through the adapter when `authorize` returns one the
   * adapter does not know (matched by id, then email). Default false: such a sign-in is refused.
   */
  createUser?: boolean
}
