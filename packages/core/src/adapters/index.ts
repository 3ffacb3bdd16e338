/**
 * The adapter contract, and an in-memory adapter.
 *
 * @module
 */
export type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterCounter,
  AdapterPassword,
  AdapterSession,
  AdapterSigningKey,
  AdapterTwoFactor,
  AdapterUser,
  VerificationToken,
} from "./types.js"
export { MemoryAdapter } from "./memory.js"
export type { MemoryAdapter as MemoryAdapterInstance } from "./memory.js"
