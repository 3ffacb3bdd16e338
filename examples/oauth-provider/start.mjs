/**
 * `npm start`: the provider app, the Notes app and the Notes MCP server, each in a process of its
 * own, their output prefixed with their name. Ctrl-C stops all three; so does one of them
 * stopping on its own.
 */
import { spawn } from "node:child_process"
import { clientAppOrigin, demoPassword, issuer, mcpUrl, providerOrigin } from "./settings.mjs"

/** Each part, and the start of the line it prints once it listens. */
const parts = [
  { name: "provider", script: "provider.mjs", listening: "Company accounts (the provider): " },
  { name: "notes", script: "client-app.mjs", listening: "Notes (the app that signs in through the provider): " },
  { name: "mcp", script: "mcp-server.mjs", listening: "Notes MCP server: " },
]

let stopping = false
let waiting = parts.length
const children = parts.map((part) => {
  const child = spawn(process.execPath, [part.script], { cwd: import.meta.dirname, stdio: ["ignore", "pipe", "pipe"] })
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    let rest = ""
    stream.setEncoding("utf8").on("data", (chunk) => {
      const lines = (rest + chunk).split("\n")
      rest = lines.pop()
      for (const line of lines) {
        out.write(`[${part.name}] ${line}\n`)
        if (out === process.stdout && line.startsWith(part.listening) && --waiting === 0 && !stopping) ready()
      }
    })
  }
  child.on("exit", (code, signal) => {
    if (stopping) return
    console.error(`[${part.name}] stopped (${signal ?? `exit code ${code}`}): stopping the others.`)
    stop(1)
  })
  return child
})

const exited = children.map((child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", resolve))))

function stop(code) {
  stopping = true
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
  void Promise.all(exited).then(() => process.exit(code))
}
// Ctrl-C in a terminal reaches the three parts too (one process group); SIGTERM reaches this one alone.
process.on("SIGINT", () => stop(0))
process.on("SIGTERM", () => stop(0))

function ready() {
  console.log(`
Ready. Open ${clientAppOrigin} and sign in with Company: demo@example.com / ${demoPassword}.
  The provider (issuer ${issuer}): ${providerOrigin}
  npm run cli     a command-line tool signing in with the device flow
  npm run agent   an MCP client calling ${mcpUrl}
Ctrl-C stops everything.`)
}
