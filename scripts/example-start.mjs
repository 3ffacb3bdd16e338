/**
 * What the example apps' `npm start` share:
 *
 * - the local OpenID Provider, for their "Sign in with Sesame Dev IdP" button: `@sesame/dev-idp`
 *   with two accounts to pick (Ada and Grace) and one client for the app, whose id, secret and the
 *   provider's issuer go into AUTH_DEV_IDP_* (which the app's configuration reads). When
 *   AUTH_DEV_IDP_ISSUER is set already, the app uses that provider, and none is started;
 * - for an app whose server runs in production, where Sesame requires what it does without on
 *   localhost in development: the app's public URL (AUTH_URL: its origin) and a secret. Without
 *   AUTH_SECRET, the run gets a random one: the users and sessions live in memory and end with the
 *   server anyway.
 */
import { randomBytes } from "node:crypto"
import { startDevIdp } from "@sesame/dev-idp"

/**
 * Starts the provider unless AUTH_DEV_IDP_ISSUER names one. `redirectUris`: the app's callback
 * URLs (`<origin>/auth/callback/dev-idp`). Resolves to the provider (to close; none when one was
 * named) and the line the start script prints about it.
 */
export async function exampleIdp(clientId, redirectUris) {
  if (process.env.AUTH_DEV_IDP_ISSUER) return { idp: undefined, line: `OpenID Connect: ${process.env.AUTH_DEV_IDP_ISSUER} (from AUTH_DEV_IDP_ISSUER)` }
  const client = { client_id: clientId, client_secret: randomBytes(32).toString("base64url") }
  const idp = await startDevIdp({
    clients: [{ ...client, redirect_uris: redirectUris }],
    accounts: [
      { id: "ada", email: "ada@example.com", name: "Ada Lovelace" },
      { id: "grace", email: "grace@example.com", name: "Grace Hopper" },
    ],
    interactive: true,
  })
  Object.assign(process.env, { AUTH_DEV_IDP_ISSUER: idp.issuer, AUTH_DEV_IDP_ID: client.client_id, AUTH_DEV_IDP_SECRET: client.client_secret })
  return { idp, line: `Sesame Dev IdP at ${idp.issuer}: pick ada@example.com or grace@example.com` }
}

/** Sets AUTH_URL (to `origin`) and AUTH_SECRET (a random one) where they are not set; the line the start script prints about the secret. */
export function productionAuthEnv(origin) {
  process.env.AUTH_URL ??= origin
  if (process.env.AUTH_SECRET) return "AUTH_SECRET: from the environment"
  process.env.AUTH_SECRET = randomBytes(33).toString("base64")
  return "AUTH_SECRET: a random one for this run (set AUTH_SECRET to keep sessions across restarts)"
}
