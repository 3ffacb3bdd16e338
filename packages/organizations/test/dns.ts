/**
 * A real DNS server for the tests of verified domains: dnsmasq on a loopback port, answering the
 * TXT records a test gives it and nothing else (no upstream, no hosts file, no configuration
 * file). dnsmasq reads its records only when it starts, so `serve` restarts it, on the same port,
 * with the new set; it resolves once the new process answers.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { existsSync } from "node:fs"
import { Resolver } from "node:dns/promises"
import { freePort } from "@sesame/testing"

/** The name the server always answers, with the generation of its records, to tell when a restart is up. */
const readyName = "ready.sesame-dns.test"

/** Where dnsmasq is: Debian's place, or the PATH. */
function dnsmasqPath(): string {
  if (existsSync("/usr/sbin/dnsmasq")) return "/usr/sbin/dnsmasq"
  const found = spawnSync("sh", ["-c", "command -v dnsmasq"], { encoding: "utf8" })
  const path = found.stdout?.trim()
  if (found.status === 0 && path) return path
  throw new Error(
    "dnsmasq is missing: the verified-domain tests answer DNS with a real dnsmasq. Install it: sudo apt-get update && sudo apt-get install -y dnsmasq-base (npm test installs it when run as root).",
  )
}

/** TXT records by name: one value, or its chunks (character-strings of one record). */
export type TxtRecords = Record<string, string | string[]>

export interface DnsServer {
  /** What `domains.resolver.servers` takes to ask this server. */
  servers: string[]
  /** Restarts the server answering exactly `records` (and the readiness name). */
  serve(records: TxtRecords): Promise<void>
  stop(): Promise<void>
}

/** Starts dnsmasq on a free loopback port, answering `records`. */
export async function dnsServer(records: TxtRecords = {}): Promise<DnsServer> {
  const binary = dnsmasqPath()
  const port = await freePort()
  const server = `127.0.0.1:${port}`
  let child: ChildProcess | undefined
  let generation = 0

  async function stop(): Promise<void> {
    const running = child
    child = undefined
    if (!running || running.exitCode !== null || running.signalCode !== null) return
    await new Promise<void>((resolve) => {
      running.once("exit", () => resolve())
      running.kill("SIGTERM")
    })
  }

  async function serve(next: TxtRecords): Promise<void> {
    await stop()
    const ready = `generation-${++generation}`
    const args = [
      "--no-daemon",
      "--keep-in-foreground",
      `--port=${port}`,
      "--listen-address=127.0.0.1",
      "--bind-interfaces",
      "--no-resolv",
      "--no-hosts",
      "--conf-file=/dev/null",
      "--pid-file",
      // Names under .test that have no record are NXDOMAIN (ENOTFOUND), not REFUSED.
      "--local=/test/",
      `--txt-record=${readyName},${ready}`,
      ...Object.entries(next).map(([name, value]) => `--txt-record=${[name, ...(Array.isArray(value) ? value : [value])].join(",")}`),
    ]
    for (const arg of args) if (/[\s"]/.test(arg)) throw new Error(`dns: no spaces or quotes in records: ${arg}`)
    const started = spawn(binary, args, { stdio: ["ignore", "ignore", "pipe"] })
    child = started
    let stderr = ""
    started.stderr!.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
    const exited = new Promise<never>((_, reject) => {
      started.once("error", reject)
      started.once("exit", (code) => reject(new Error(`dnsmasq exited (${code}) before it answered: ${stderr.trim()}`)))
    })
    exited.catch(() => {})
    const resolver = new Resolver({ timeout: 200, tries: 1 })
    resolver.setServers([server])
    const deadline = Date.now() + 10_000
    for (;;) {
      const answered = await Promise.race([
        resolver.resolveTxt(readyName).then(
          (found) => found.some((chunks) => chunks.join("") === ready),
          () => false,
        ),
        exited,
      ])
      if (answered) return
      if (Date.now() > deadline) {
        await stop()
        throw new Error(`dnsmasq did not answer on ${server} within 10 s: ${stderr.trim()}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  await serve(records)
  return { servers: [server], serve, stop }
}
