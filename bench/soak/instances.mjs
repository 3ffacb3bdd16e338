/**
 * App instances (bench/soak/server.mjs) as real processes on free loopback ports, with the emails
 * each one prints and whatever it logs on stderr.
 */
import { spawn } from "node:child_process"
import { join } from "node:path"

const serverFile = join(import.meta.dirname, "server.mjs")
/** How long a virtual user waits for an email before calling it an error. */
const mailTimeoutMs = 10_000

/** The emails one instance printed, each handed out once, by address. */
class Mailbox {
  #unread = []
  #waiting = []

  deliver(mail) {
    const index = this.#waiting.findIndex((w) => w.to === mail.to)
    if (index >= 0) this.#waiting.splice(index, 1)[0].take(mail)
    else this.#unread.push(mail)
  }

  /** The next email to `to`: one already printed, or the next to come (it may follow the HTTP answer). */
  next(to) {
    const index = this.#unread.findIndex((m) => m.to === to)
    if (index >= 0) return Promise.resolve(this.#unread.splice(index, 1)[0])
    return new Promise((resolve, reject) => {
      const waiter = {
        to,
        take: (mail) => {
          clearTimeout(timer)
          resolve(mail)
        },
      }
      const timer = setTimeout(() => {
        this.#waiting.splice(this.#waiting.indexOf(waiter), 1)
        reject(new Error(`no email to ${to} within ${mailTimeoutMs / 1000} s`))
      }, mailTimeoutMs)
      this.#waiting.push(waiter)
    })
  }
}

/**
 * Starts one instance; resolves once it listens. `storeEnv` says where its data is (DATABASE_URL,
 * or ADAPTER=redis with REDIS_URL and REDIS_PREFIX: see server.mjs). `log` is kept: every stderr
 * line with the time it arrived (performance.now() of the run, the clock the requests are timed
 * on), for the report (Sesame logs errors as `[sesame][error] …` and visitors' mistakes as
 * `[sesame][warn] …`; see logs.mjs).
 */
export function startInstance({ index, storeEnv, secret, handler }) {
  const child = spawn(process.execPath, ["--expose-gc", serverFile, "--handler", handler], {
    env: { ...process.env, ...storeEnv, AUTH_SECRET: secret, PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: Ctrl-C reaches the run only, which then stops its instances in order.
    detached: true,
  })
  const log = []
  const mailbox = new Mailbox()
  const lines = (stream, onLine) => {
    let pending = ""
    stream.on("data", (chunk) => {
      const all = (pending + chunk.toString()).split("\n")
      pending = all.pop()
      for (const line of all) onLine(line)
    })
  }
  lines(child.stderr, (line) => log.push({ at: performance.now(), line }))
  let exited = false
  const exit = new Promise((done) => child.once("exit", (code, signal) => ((exited = true), done(code ?? signal))))
  return new Promise((resolve, reject) => {
    lines(child.stdout, (line) => {
      if (line.startsWith("mail ")) mailbox.deliver(JSON.parse(line.slice("mail ".length)))
      const port = /^listening on (\d+)$/.exec(line)?.[1]
      if (port) {
        resolve({
          name: `instance ${index + 1}`,
          origin: `http://127.0.0.1:${port}`,
          pid: child.pid,
          log,
          mail: (to) => mailbox.next(to),
          /** Whether the process is gone (it must not be, before the run stops it). */
          exited: () => exited,
          stop: () => {
            if (!exited) child.kill("SIGTERM")
            return exit
          },
        })
      }
    })
    exit.then((status) => reject(new Error(`instance ${index + 1} exited (${status}) before listening:\n${log.map((entry) => entry.line).join("\n")}`)))
  })
}
