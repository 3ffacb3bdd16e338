/**
 * `npm start`: the app on http://localhost:$PORT (3000), built first when its sources or the
 * packages changed, with a local OpenID Provider (`@sesame/dev-idp`) for the "Sign in with
 * Sesame Dev IdP" button unless AUTH_DEV_IDP_ISSUER names one. Ctrl-C stops both.
 *
 * In production, run the built server yourself: `node dist/server/entry.mjs` with HOST, PORT,
 * AUTH_SECRET, AUTH_URL and your providers' variables (see the README).
 */
import { exampleIdp } from "../../../scripts/example-start.mjs"
import { buildIfChanged } from "./build.mjs"

const port = Number(process.env.PORT ?? 3000)
if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT must be a port number, not ${process.env.PORT}`)
const origin = `http://localhost:${port}`
// The Node adapter's standalone server listens where HOST and PORT say.
process.env.PORT = String(port)
process.env.HOST ??= "127.0.0.1"

console.log("Building the app when needed…")
console.log(buildIfChanged())

const { line: idpLine } = await exampleIdp("sesame-astro-example", [`${origin}/auth/callback/dev-idp`, `http://127.0.0.1:${port}/auth/callback/dev-idp`])

// The built server reads its settings (HOST, PORT) and the app's (AUTH_*) from process.env, and
// starts listening as it is imported.
await import("../dist/server/entry.mjs")
console.log(
  [
    "",
    `Sesame on Astro: ${origin}`,
    "  Demo account: demo@example.com / sesame-demo",
    `  ${idpLine}`,
    "  Ctrl-C stops everything.",
    "",
  ].join("\n"),
)
