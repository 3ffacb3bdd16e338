/**
 * 12,500 hostile requests per run by default (10,000 to the valid configurations, 2,500 to the
 * invalid ones): `Auth()` must never throw, never answer a 5xx from a valid configuration, never
 * redirect off the app's origin (or the IdP's) where the public URL is configured, and never show
 * a stack trace.
 * The valid configurations use JWT and database sessions and have every provider kind
 * (credentials, email, OIDC against the real dev IdP, passkeys); two deliberately invalid ones
 * must answer their 5xx with the configuration error and nothing else.
 *
 * The generators and scenarios are in `robustness/`, the properties in
 * `robustness/properties.ts`. The seed is printed: set SESAME_FUZZ_SEED to replay a run,
 * SESAME_FUZZ_RUNS to change the number of requests.
 */
import type { DevIdp } from "@sesame/dev-idp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startIdp } from "./oauth/harness.js"
import { allSessions } from "./robustness/generators.js"
import { fuzz, type RunResult } from "./robustness/run.js"
import { idpClients, prepareTargets, type Target } from "./robustness/targets.js"

const seed = Number(process.env.SESAME_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31))
const runs = Number(process.env.SESAME_FUZZ_RUNS ?? 10_000)

let idp: DevIdp
let targets: Target[]

beforeAll(async () => {
  idp = await startIdp({ clients: idpClients })
  targets = await prepareTargets(idp)
  console.log(`robustness: seed ${seed}, ${runs} requests to the valid configurations (replay with SESAME_FUZZ_SEED=${seed})`)
})
afterAll(() => idp?.close())

function print(label: string, { tally, tokenRequests }: RunResult): void {
  for (const line of tally.summary()) console.log(`robustness (${label}): ${line}`)
  console.log(`robustness (${label}): IdP token requests ${tokenRequests}`)
}

function expectNoProblem({ tally }: RunResult): void {
  expect(tally.failureCount, `seed ${seed}: ${tally.failureCount} requests broke a property; the first ones:\n\n${tally.report()}`).toBe(0)
}

describe("robustness", () => {
  it("the valid configurations survive the requests: no throw, no 5xx, no foreign redirect, no stack trace", async () => {
    const valid = targets.filter((t) => !t.invalid)
    const result = await fuzz({ seed, runs, targets: valid, sessions: allSessions(targets), idp })
    print("valid", result)
    expectNoProblem(result)

    // The run reached what it is meant to: every configuration answered with successes, redirects
    // and refusals, and whole flows of every kind got past every check (so that the requests
    // around them are fuzzed too). Fewer runs than the default may not reach the rarer flows.
    const { tally, sent } = result
    expect(sent).toBeGreaterThanOrEqual(runs)
    for (const t of valid) {
      const answered = tally.count(t.name, 0, 1000)
      expect(answered, t.name).toBeGreaterThan(runs / 5)
      expect(tally.count(t.name, 200, 300) / answered, `${t.name}: share of 2xx`).toBeGreaterThan(0.1)
      expect(tally.count(t.name, 300, 400) / answered, `${t.name}: share of 3xx`).toBeGreaterThan(0.2)
      expect(tally.count(t.name, 400, 500) / answered, `${t.name}: share of 4xx`).toBeGreaterThan(0.1)
    }
    if (runs >= 10_000) {
      for (const scenario of ["credentials", "fullOidc", "emailLink", "passkey", "signedIn"] as const) {
        expect(tally.sessionsStarted(scenario), `sessions started by ${scenario}`).toBeGreaterThan(0)
      }
    }
  }, 120_000)

  it("deliberately invalid configurations answer their 5xx with the configuration error only, and redirect only to the app", async () => {
    const invalid = targets.filter((t) => t.invalid)
    const result = await fuzz({ seed, runs: Math.ceil(runs / 4), targets: invalid, sessions: allSessions(targets), idp })
    print("invalid", result)
    expectNoProblem(result)
    for (const t of invalid) expect(result.tally.count(t.name, 500, 501), t.name).toBeGreaterThan(0)
  }, 60_000)
})
