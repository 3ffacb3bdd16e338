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
import { randomBytes } from "node:crypto"
import { startDevIdp } from "@sesame/dev-idp"
import { appDir, bin, buildIfChanged } from "./build.mjs"

const port = Number(process.env.PORT ?? 3500)
if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT must be a port number, not ${process.env.PORT}`)
const origin = `http://localhost:${port}`
const host = process.env.HOST ?? "127.0.0.1"

console.log("Building the app when needed…")
console.log(buildIfChanged())

let idp
let idpLine = `OpenID Connect: ${process.env.AUTH_DEV_IDP_ISSUER} (from AUTH_DEV_IDP_ISSUER)`
if (!process.env.AUTH_DEV_IDP_ISSUER) {
  const client = { client_id: "sesame-tanstack-start-example", client_secret: randomBytes(32).toString("base64url") }
  idp = await startDevIdp({
    clients: [{ ...client, redirect_uris: [`${origin}/auth/callback/dev-idp`] }],
    accounts: [
      { id: "ada", email: "ada@example.com", name: "Ada Lovelace" },
      { id: "grace", email: "grace@example.com", name: "Grace Hopper" },
    ],
    interactive: true,
  })
  Object.assign(process.env, { AUTH_DEV_IDP_ISSUER: idp.issuer, AUTH_DEV_IDP_ID: client.client_id, AUTH_DEV_IDP_SECRET: client.client_secret })
  idpLine = `Sesame Dev IdP at ${idp.issuer}: pick ada@example.com or grace@example.com`
}

// The server runs in production (NODE_ENV=production: React's production build, TanStack Start's
// errors without stack traces), where Sesame requires what it does
// without on localhost in development: the app's public URL (AUTH_URL: this origin) and a secret.
// Without AUTH_SECRET, this run gets a random one: the users and sessions live in memory and end
// with the server anyway.
process.env.AUTH_URL ??= origin
let secretLine = "AUTH_SECRET: from the environment"
if (!process.env.AUTH_SECRET) {
  process.env.AUTH_SECRET = randomBytes(33).toString("base64")
  secretLine = "AUTH_SECRET: a random one for this run (set AUTH_SECRET to keep sessions across restarts)"
}

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
