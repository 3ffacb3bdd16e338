/**
 * `npm start`: the app on http://localhost:$PORT (3400), built first when its sources or the
 * packages changed, with a local OpenID Provider (`@sesame/dev-idp`) for the "Sign in with
 * Sesame Dev IdP" button unless AUTH_DEV_IDP_ISSUER names one. Ctrl-C stops both. Nuxt 4.6 needs
 * Node.js 22.22.3, 24.15 or later.
 *
 * In production, run the built server yourself: `node .output/server/index.mjs` with HOST, PORT,
 * AUTH_SECRET, AUTH_URL and your providers' variables (see the README).
 */
import { exampleIdp } from "../../../scripts/example-start.mjs"
import { buildIfChanged, checkNode } from "./build.mjs"

checkNode()
const port = Number(process.env.PORT ?? 3400)
if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT must be a port number, not ${process.env.PORT}`)
const origin = `http://localhost:${port}`
// Nitro's node-server listens where PORT and HOST say.
process.env.PORT = String(port)
process.env.HOST ??= "127.0.0.1"

console.log("Building the app when needed…")
console.log(buildIfChanged())

const { line: idpLine } = await exampleIdp("sesame-nuxt-example", [`${origin}/auth/callback/dev-idp`, `http://127.0.0.1:${port}/auth/callback/dev-idp`])

// The built server reads its settings (HOST, PORT) and the app's (AUTH_*) from process.env, and
// starts listening as it is imported.
await import("../.output/server/index.mjs")
console.log(
  [
    "",
    `Sesame on Nuxt: ${origin}`,
    "  Demo account: demo@example.com / sesame-demo",
    `  ${idpLine}`,
    "  Ctrl-C stops everything.",
    "",
  ].join("\n"),
)
