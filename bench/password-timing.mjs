/**
 * Whether the password provider's answers take about as long for an address with an account as for
 * one without (the issue's "no enumeration" by timing): each pair of requests below is timed one
 * after the other, alternately, with the default Argon2id parameters (19 MiB, 2 passes), and the
 * medians compared. A ratio near 1.00× is the goal; the fixed cost of one email (a no-op here) and
 * one database write stay on one side. Not a comparison with other libraries, and never asserted
 * by tests.
 *
 *   npm run build && node bench/password-timing.mjs [--quick]
 */
import { Auth, skipCSRFCheck } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Password from "@sesame/core/providers/password"

const quick = process.argv.includes("--quick")
const pairs = quick ? 3 : 40
const origin = "http://localhost:3000"

const adapter = MemoryAdapter()
const config = {
  secret: "benchmark-secret-0123456789-abcdefghijklmnop",
  trustHost: true,
  adapter,
  skipCSRFCheck,
  logger: { error: () => {}, warn: () => {}, debug: () => {} },
  // The throttle and the email limit are off here: they would answer the later requests early.
  providers: [Password({ sendEmail: () => {}, throttle: false, emailsPerAddress: 1_000_000 })],
}

const post = (path, form) =>
  Auth(new Request(`${origin}/auth/${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin }, body: new URLSearchParams(form) }), config)

// One confirmed account with a password.
await post("signup/password", { email: "ada@example.com", password: "correct horse battery" })
await adapter.updateUser({ id: (await adapter.getUserByEmail("ada@example.com")).id, emailVerified: new Date() })

let fresh = 0
const cases = [
  ["sign-in, wrong password", () => post("callback/password", { email: "ada@example.com", password: "wrong password 1" }), "sign-in, no account", () => post("callback/password", { email: "nobody@example.com", password: "wrong password 1" })],
  ["sign-up, address taken", () => post("signup/password", { email: "ada@example.com", password: "another password 1" }), "sign-up, new address", () => post("signup/password", { email: `new-${fresh++}@example.com`, password: "another password 1" })],
  ["forgot password, account", () => post("forgot-password/password", { email: "ada@example.com" }), "forgot password, no account", () => post("forgot-password/password", { email: "nobody@example.com" })],
]

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
async function time(fn) {
  const start = performance.now()
  const response = await fn()
  await response.text()
  return performance.now() - start
}

const ratios = []
console.log(`${"request".padEnd(30)}${"median ms".padStart(11)}   ${"request".padEnd(30)}${"median ms".padStart(11)}${"ratio".padStart(9)}`)
for (const [nameA, a, nameB, b] of cases) {
  await time(a)
  await time(b)
  const ta = []
  const tb = []
  for (let i = 0; i < pairs; i++) {
    ta.push(await time(a))
    tb.push(await time(b))
  }
  const [ma, mb] = [median(ta), median(tb)]
  console.log(`${nameA.padEnd(30)}${ma.toFixed(2).padStart(11)}   ${nameB.padEnd(30)}${mb.toFixed(2).padStart(11)}${`${(ma / mb).toFixed(2)}×`.padStart(9)}`)
  ratios.push(`${nameA.split(",")[0]} ${(ma / mb).toFixed(2)}×`)
}
console.log(`summary: account / no account: ${ratios.join(", ")}`)
