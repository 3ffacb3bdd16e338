"use client"
/**
 * `@sesame/next/react`: the session in client components, and signing in and out from the browser.
 *
 * @example
 * ```tsx
 * "use client"
 * import { signOut, useSession } from "@sesame/next/react"
 *
 * export function UserMenu() {
 *   const { data, status } = useSession()
 *   if (status !== "authenticated") return null
 *   return <button onClick={() => signOut()}>Sign out {data.user?.name}</button>
 * }
 * ```
 *
 * @module
 */
export { getCsrfToken, getProviders, getSession, isStorageUnavailable, signIn, signOut, StorageUnavailable } from "./client.js"
export type { ClientOptions, ClientProvider, SignInOptions, SignInResponse, SignOutOptions } from "./client.js"
export { SessionProvider, useSession } from "./session-provider.js"
export type { SessionContextValue, SessionProviderProps, SessionStatus, UpdateSession, UseSessionOptions } from "./session-provider.js"
