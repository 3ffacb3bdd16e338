/**
 * `npm start`: the app on http://localhost:$PORT (3000), built first when its sources or the
 * packages changed, with a local OpenID Provider (`@sesame/dev-idp`) for the "Sign in with
 * Sesame Dev IdP" button unless AUTH_DEV_IDP_ISSUER names one. Ctrl-C stops both.
 *
 * In production, run the built server yourself: `node build/index.js` with ORIGIN, AUTH_SECRET and
 * your providers' variables (see the README).
 */
import { exampleIdp } from "../../../scripts/example-start.mjs"
import { buildIfChanged } from "./build.mjs"

const port = Number(process.env.PORT ?? 3000)
if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT must be a port number, not ${process.env.PORT}`)
// adapter-node builds each request's URL from ORIGIN; without it, it assumes https.
const origin = (process.env.ORIGIN ??= `http://localhost:${port}`)
process.env.PORT = String(port)
process.env.HOST ??= "127.0.0.1"

console.log("Building the app when needed…")
console.log(buildIfChanged())

const { idp, line: idpLine } = await exampleIdp("sesame-sveltekit-example", [`${origin}/auth/callback/dev-idp`])
// adapter-node closes its server on SIGINT / SIGTERM, then says so with this event.
if (idp) process.once("sveltekit:shutdown", () => void idp.close())

// The built server reads its settings (HOST, PORT, ORIGIN) and the app's (AUTH_*) from process.env.
await import("../build/index.js")
console.log(
  [
    "",
    `Sesame on SvelteKit: ${origin}`,
    "  Demo account: demo@example.com / sesame-demo",
    `  ${idpLine}`,
    "  Ctrl-C stops everything.",
    "",
  ].join("\n"),
)
