/**
 * `npm start`: the app on http://localhost:$PORT (3300), built first when its sources or the
 * packages changed, with a local OpenID Provider (`@sesame/dev-idp`) for the "Sign in with
 * Sesame Dev IdP" button unless AUTH_DEV_IDP_ISSUER names one. The app runs in React Router's own
 * server, `react-router-serve build/server/index.js`, as a child process with this environment.
 * Ctrl-C stops both.
 *
 * In production, run the built server yourself: `react-router-serve build/server/index.js` with
 * HOST, PORT, AUTH_SECRET, AUTH_URL and your providers' variables (see the README).
 */
import { spawn } from "node:child_process"
import { exampleIdp, productionAuthEnv } from "../../../scripts/example-start.mjs"
import { appDir, bin, buildIfChanged } from "./build.mjs"

const port = Number(process.env.PORT ?? 3300)
if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT must be a port number, not ${process.env.PORT}`)
const origin = `http://localhost:${port}`
// react-router-serve listens where HOST and PORT say (on every interface without HOST).
process.env.PORT = String(port)
process.env.HOST ??= "127.0.0.1"

console.log("Building the app when needed…")
console.log(buildIfChanged())

const { idp, line: idpLine } = await exampleIdp("sesame-react-router-example", [`${origin}/auth/callback/dev-idp`])

// The server runs in production, as react-router-serve does by default (NODE_ENV=production: React's
// production build, React Router's error pages without stack traces): AUTH_URL and AUTH_SECRET are required.
const secretLine = productionAuthEnv(origin)

// The server reads its settings (HOST, PORT) and the app's (AUTH_*) from the environment.
const server = spawn(process.execPath, [bin("@react-router/serve", "react-router-serve"), "build/server/index.js"], {
  cwd: appDir,
  env: { ...process.env, NODE_ENV: "production" },
  stdio: ["ignore", "pipe", "inherit"],
})
let ready = false
server.stdout.on("data", (chunk) => {
  process.stdout.write(chunk)
  // react-router-serve says where it listens once it does.
  if (ready || !chunk.toString().includes("[react-router-serve]")) return
  ready = true
  console.log(
    [
      "",
      `Sesame on React Router: ${origin}`,
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
