/**
 * The development secret's store where the `node` export condition does not apply (Edge, workers,
 * browsers): there is none. These runtimes have no file to share a secret through, and a random
 * value of their own would not open the sessions that the Node.js side of the same app seals: the
 * user would be signed in there and signed out here, with nothing said. So a missing secret is a
 * configuration error in these runtimes (see `resolve.ts`), even for loopback hosts.
 *
 * @module
 */
import type { DevelopmentSecret } from "./development-secret.js"

export function loadDevelopmentSecret(): DevelopmentSecret {
  return { kind: "unavailable" }
}
