/**
 * `@sesame/dev-idp`: a real OpenID Provider on 127.0.0.1 for tests, examples and local development.
 *
 * @example
 * ```ts
 * import { startDevIdp } from "@sesame/dev-idp"
 *
 * const idp = await startDevIdp({
 *   clients: [{ client_id: "app", client_secret: "a-long-enough-client-secret-0123456789", redirect_uris: ["http://localhost:3000/auth/callback/dev"] }],
 *   accounts: [{ id: "alice", email: "alice@example.com", name: "Alice" }],
 * })
 * // issuer: idp.issuer; stop with `await idp.close()`
 * ```
 *
 * @module
 */
export { startDevIdp } from "./start.js"
export type { DevIdp, DevIdpAccount, DevIdpClient, DevIdpOptions } from "./types.js"
