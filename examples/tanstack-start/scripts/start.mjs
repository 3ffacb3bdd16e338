/**
 * `npm start`: the app on http://localhost:$PORT (3500), built first when its sources or the
 * packages changed, with a local OpenID Provider (`@sesame/dev-idp`) for the "Sign in with
 * Sesame Dev IdP" button unless AUTH_DEV_IDP_ISSUER names one. The built app (dist/server/server.js,
 * a web-standard `fetch` handler) runs in srvx, the Node.js server TanStack Start's hosting guide
 * names, with dist/client as its static files, as a child process with this environment. Ctrl-C
 * stops both.
 *
 * In production, run the built server yourself: `srvx serve --prod --entry dist/server/server.js
 * --static dist/client` with AUTH_SECRET, AUTH_URL and your providers' variables (see the README).
 */
import { spawn } from "node:child_process"
import { exampleIdp, productionAuthEnv } from "../../../scripts/example-start.mjs"
import { appDir, bin, buildIfChanged } from "./build.mjs"

const port = Number(process.env.PORT ?? 3500)
if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT must be a port number, not ${process.env.PORT}`)
const origin = `http://localhost:${port}`
const host = process.env.HOST ?? "127.0.0.1"

console.log("Building the app when needed…")
console.log(buildIfChanged())

const { idp, line: idpLine } = await exampleIdp("sesame-tanstack-start-example", [`${origin}/auth/callback/dev-idp`])

// The server runs in production (NODE_ENV=production: React's production build, TanStack Start's
// errors without stack traces): AUTH_URL and AUTH_SECRET are required.
const secretLine = productionAuthEnv(origin)

// The app reads its settings (AUTH_*) from the environment; srvx takes --static from the entry's folder.
const args = ["serve", "--prod", "--entry", "dist/server/server.js", "--static", "../client", "--port", String(port), "--host", host]
const server = spawn(process.execPath, [bin("srvx", "srvx"), ...args], {
  cwd: appDir,
  env: { ...process.env, NODE_ENV: "production" },
  stdio: ["ignore", "pipe", "inherit"],
})
let ready = false
server.stdout.on("data", (chunk) => {
  process.stdout.write(chunk)
  // srvx says where it listens once it does.
  if (ready || !/https?:\/\//.test(chunk.toString())) return
  ready = true
  console.log(
    [
      "",
      `Sesame on TanStack Start: ${origin}`,
      "  Demo account: demo@example.com / sesame-demo",
      `  ${idpLine}`,
      `  ${secretLine}`,
      "  Ctrl-C stops everything.",
      "",
    ].join("\n"),
  )
})
// Ctrl-C reaches both processes; a signal to this one alone is passed on.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal))
server.on("exit", async (code, signal) => {
  if (!ready) console.error(`The server stopped before it listened (${signal ?? `exit code ${code}`}): see its output above.`)
  await idp?.close().catch(() => undefined)
  process.exit(code ?? 0)
})
