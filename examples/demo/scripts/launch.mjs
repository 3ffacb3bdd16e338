/**
 * Starts the demo once the packages are built (scripts/start.mjs does that first): on loopback,
 * the local OpenID provider, the mailbox, a DNS server (domain verification) and Acme Corp's
 * identity provider (enterprise SSO); then the Next.js app on http://localhost:$PORT, built only
 * when its sources or the packages changed. Ctrl-C (or SIGTERM) stops all of it.
 */
import { spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { join } from "node:path"
import { startDevDns } from "@sesame/dev-dns"
import { startDevIdp } from "@sesame/dev-idp"
import { startMailbox } from "@sesame/dev-mailbox"
import { buildIfChanged, nextBin } from "./build.mjs"
import { startDevApi } from "./dev-api.mjs"
import { demoDir, ensureSecret, readEnvFile } from "./env-file.mjs"

const bold = (text) => `\x1b[1m${text}\x1b[0m`
const step = (message) => console.log(bold(`▶ ${message}`))

const idpAccounts = [
  { id: "ada", email: "ada@example.com", name: "Ada Lovelace" },
  { id: "grace", email: "grace@example.com", name: "Grace Hopper" },
]
const realProviders = ["GITHUB", "GOOGLE", "GITLAB", "DISCORD"]
/** The people of Acme Corp's identity provider: their domain is the one Acme proves in the demo. */
const acmeDomain = "acme.example"
const acmePeople = [
  { id: "lin", email: `lin@${acmeDomain}`, name: "Lin Okafor" },
  { id: "sam", email: `sam@${acmeDomain}`, name: "Sam Reyes" },
]

/** Everything started so far, stopped in reverse order. */
const running = []
let stopping = false

async function stopAll(code) {
  if (stopping) return
  stopping = true
  for (const stop of running.reverse()) await stop().catch(() => {})
  process.exit(code)
}
process.on("SIGINT", () => void stopAll(130))
process.on("SIGTERM", () => void stopAll(143))

async function main() {
  if (ensureSecret(readEnvFile())) step(`Wrote a new AUTH_SECRET to ${join("examples", "demo", ".env.local")}`)
  // Read again, with the secret; the process environment wins over .env.local, as in Next.js.
  const env = { ...readEnvFile(), ...process.env }
  const port = Number(env.PORT ?? 3000)
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT must be a port number, not ${env.PORT}`)
  const origin = `http://localhost:${port}`
  const appEnv = {
    ...env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    AUTH_URL: env.AUTH_URL ?? `${origin}/api/auth`,
    DATABASE_FILE: env.DATABASE_FILE ?? join(demoDir, ".data", "sesame.db"),
  }

  const real = realProviders.filter((id) => env[`AUTH_${id}_ID`])
  let oauthLine
  if (real.length > 0) {
    oauthLine = `OAuth: ${real.map((id) => id[0] + id.slice(1).toLowerCase()).join(", ")} (from AUTH_*_ID)`
  } else {
    step("Starting the local OpenID provider (Sesame Dev IdP)")
    const client = { client_id: "sesame-demo", client_secret: randomBytes(32).toString("base64url") }
    const idp = await startDevIdp({
      clients: [{ ...client, redirect_uris: [`${new URL(appEnv.AUTH_URL).origin}/api/auth/callback/dev-idp`] }],
      accounts: idpAccounts,
      interactive: true,
    })
    running.push(() => idp.close())
    Object.assign(appEnv, { AUTH_DEV_IDP_ISSUER: idp.issuer, AUTH_DEV_IDP_ID: client.client_id, AUTH_DEV_IDP_SECRET: client.client_secret })
    oauthLine = `Sesame Dev IdP at ${idp.issuer}: pick ${idpAccounts.map((a) => a.email).join(" or ")}`
  }

  // The app reads the mailbox and the DNS records through one loopback API (scripts/dev-api.mjs).
  const devRoutes = {}
  let mailLine
  if (env.EMAIL_SERVER) {
    mailLine = `Email: sent through EMAIL_SERVER (${new URL(env.EMAIL_SERVER).host})`
  } else {
    step("Starting the local mailbox (SMTP on 127.0.0.1)")
    const mailbox = await startMailbox()
    running.push(() => mailbox.close())
    devRoutes["GET /mailbox/messages"] = () => mailbox.messages()
    Object.assign(appEnv, { EMAIL_SERVER: mailbox.url })
    mailLine = `Email: every message goes to ${origin}/dev/mailbox (SMTP ${mailbox.url})`
  }

  step("Starting the local DNS server (for verifying an organization's domain)")
  const dns = await startDevDns()
  running.push(() => dns.close())
  devRoutes["GET /dns/records"] = () => dns.records()
  devRoutes["POST /dns/records"] = (record) => {
    if (typeof record?.name !== "string" || typeof record?.value !== "string") throw new TypeError("A record needs a name and a value.")
    dns.publish({ name: record.name, type: "TXT", value: record.value })
    return dns.records()
  }

  const api = await startDevApi(devRoutes)
  running.push(() => api.close())
  Object.assign(appEnv, {
    DEV_API_TOKEN: api.token,
    DEV_DNS_URL: `${api.url}/dns`,
    DEV_DNS_SERVER: dns.server,
    ...(devRoutes["GET /mailbox/messages"] ? { DEV_MAILBOX_URL: `${api.url}/mailbox` } : {}),
  })

  step("Starting Acme Corp's identity provider (an organization's single sign-on)")
  const acmeClient = { client_id: "acme-sso", client_secret: randomBytes(32).toString("base64url") }
  const acme = await startDevIdp({
    name: "Acme Corp sign-in",
    // Each connection has its own callback, `callback/sso-<connection id>`, made when an admin adds it.
    clients: [{ ...acmeClient, redirect_uris: [], redirect_uri_prefixes: [`${new URL(appEnv.AUTH_URL).href.replace(/\/$/, "")}/callback/sso-`] }],
    accounts: acmePeople,
    interactive: true,
  })
  running.push(() => acme.close())
  Object.assign(appEnv, { DEMO_SSO_ISSUER: acme.issuer, DEMO_SSO_CLIENT_ID: acmeClient.client_id, DEMO_SSO_CLIENT_SECRET: acmeClient.client_secret, DEMO_SSO_DOMAIN: acmeDomain })

  if (!(await buildIfChanged(appEnv, step))) return stopAll(1)

  step(`Starting the app on ${origin}`)
  // Its own process group, so that stopping it stops whatever Next.js forked.
  const app = spawn(process.execPath, [nextBin, "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: demoDir,
    env: appEnv,
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  })
  running.push(() => stopProcess(app))
  app.stdout.on("data", (chunk) => process.stdout.write(chunk))
  app.on("exit", (code) => {
    if (stopping) return
    console.error(`The app stopped (exit code ${code}).${code === 1 ? ` Is port ${port} taken? Set PORT to use another.` : ""}`)
    void stopAll(code || 1)
  })
  if (!(await waitForApp(`http://127.0.0.1:${port}/`))) {
    console.error(`The app did not answer on port ${port} within a minute: see its messages above.`)
    return stopAll(1)
  }
  console.log(
    [
      "",
      bold(`Sesame demo: ${origin}`),
      `  Demo account: ${env.DEMO_EMAIL ?? "demo@example.com"} / ${env.DEMO_PASSWORD ?? "sesame-demo"}`,
      `  ${oauthLine}`,
      `  ${mailLine}`,
      `  Enterprise SSO: Acme Corp's identity provider at ${acme.issuer} (${acmePeople.map((p) => p.email).join(", ")}): prove ${acmeDomain} and connect it on ${origin}/organizations/sso`,
      `  DNS: ${dns.server}, records published on ${origin}/dev/dns`,
      `  OAuth provider: issuer ${new URL(appEnv.AUTH_URL).origin}/api/auth/oauth; Partner notes and a TV sign in through it on ${origin}/dev/partner`,
      '  Password accounts: "No account yet? Create one" on the sign-in page (the confirmation email goes where the others do)',
      "  Passkeys: create one on the sign-in page with a new email, or add one from the home page",
      `  Data: ${appEnv.DATABASE_FILE}`,
      "  Ctrl-C stops everything.",
      "",
    ].join("\n"),
  )
}

function stopProcess(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => signalGroup(child, "SIGKILL"), 5000)
    child.once("exit", () => {
      clearTimeout(timer)
      resolve()
    })
    signalGroup(child, "SIGTERM")
  })
}

function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal)
  } catch {
    // Already gone.
  }
}

/** Whether `url` answers within a minute (false at once when stopping). */
async function waitForApp(url) {
  for (let i = 0; i < 600 && !stopping; i++) {
    try {
      await fetch(url, { redirect: "manual" })
      return true
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  return false
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  void stopAll(1)
})
