/**
 * The demo's Sesame configuration: every sign-in method (lib/providers.ts), database sessions in
 * SQLite (lib/store.ts), Sesame's built-in pages under /api/auth (sign-in, and the password
 * provider's sign-up, forgotten-password and reset pages).
 */
import type { AuthConfig } from "@sesame/core"
import Sesame from "@sesame/next"
import { providers } from "./lib/providers"
import { adapter } from "./lib/store"

export const basePath = "/api/auth"

const config: AuthConfig = {
  basePath,
  adapter,
  providers,
  session: { strategy: "database" },
  experimental: { enableWebAuthn: true },
  theme: { brandColor: "#0b5e5a" },
  debug: process.env.SESAME_DEBUG === "1",
}

export const {
  handlers,
  auth,
  signIn,
  signOut,
  // The signed-in user's accounts, sessions, passkeys and password, for the home page and its actions.
  listAccounts,
  unlinkAccount,
  deleteUser,
  listSessions,
  revokeSession,
  listPasskeys,
  deletePasskey,
  hasPassword,
  changePassword,
  setPassword,
} = Sesame(config)
