/**
 * The Notes CLI: a command-line tool that signs its user in with the device flow (RFC 8628), with
 * openid-client. It asks the provider for a code, tells the user where to enter it, and polls
 * until the user allowed it in a browser (any browser, even on another device); then it has the
 * user's tokens.
 *
 *   npm run cli                (with npm start running)
 */
import * as client from "openid-client"
import { cliClientId, issuer } from "./settings.mjs"

// A public client: no secret (`None()`), like every program that runs on the user's machine.
// `allowInsecureRequests` only because this example's provider runs on plain http on 127.0.0.1:
// against a real issuer (https) leave it out.
const config = await client.discovery(new URL(issuer), cliClientId, undefined, client.None(), { execute: [client.allowInsecureRequests] })

const device = await client.initiateDeviceAuthorization(config, { scope: "openid email profile offline_access" })
console.log(`To sign in, open ${device.verification_uri} and enter the code ${device.user_code}`)
if (device.verification_uri_complete) console.log(`(or open ${device.verification_uri_complete})`)
console.log("Waiting for you to allow it…")

try {
  // Polls the token endpoint every `interval` seconds (5 when the provider names none) until the
  // user allows or denies it, or the code expires (10 minutes).
  const tokens = await client.pollDeviceAuthorizationGrant(config, device)
  const { sub } = tokens.claims()
  const user = await client.fetchUserInfo(config, tokens.access_token, sub)
  console.log(`Signed in as ${user.name} <${user.email}> (subject ${sub})`)
  // A real tool keeps the refresh token (in the system's keychain) and refreshes with it next time.
  console.log(tokens.refresh_token ? "Got a refresh token: the tool stays signed in." : "No refresh token.")
} catch (error) {
  if (error instanceof client.ResponseBodyError && error.error === "access_denied") console.error("You cancelled the sign-in.")
  else if (error instanceof client.ResponseBodyError && error.error === "expired_token") console.error("The code expired: run the command again.")
  else console.error(`The sign-in failed: ${error.message}`)
  process.exitCode = 1
}
