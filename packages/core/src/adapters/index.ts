/**
 * The adapter contract.
 *
 * @module
 */
export type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser, VerificationToken } from "./types.js"
