/**
 * One fuzzing run: picks a configuration and a scenario, lets the scenario send its requests
 * through `Auth()`, checks every answer against the properties, and tallies, until `runs`
 * requests have been sent.
 */
import type { DevIdp } from "@sesame/dev-idp"
import { Auth } from "@sesame/core"
import { describeDraft, toRequest, type Draft } from "./generators.js"
import { problemsOf } from "./properties.js"
import { mulberry32, pick, weighted } from "./random.js"
import type { Answer, Fuzz } from "./fuzz.js"
import { scenarios, scenarioWeights, type ScenarioName } from "./scenarios.js"
import { Tally } from "./tally.js"
import type { RealCookie, Target } from "./targets.js"

export interface RunOptions {
  seed: number
  runs: number
  targets: readonly Target[]
  /** Real session cookies to mix in (of every configuration, so that some go to the wrong one). */
  sessions: readonly RealCookie[]
  idp: DevIdp
}

export interface RunResult {
  tally: Tally
  sent: number
  tokenRequests: number
}

export async function fuzz({ seed, runs, targets, sessions, idp }: RunOptions): Promise<RunResult> {
  const rng = mulberry32(seed)
  const tally = new Tally()
  const tokenRequestsBefore = idp.tokenRequests()
  let sent = 0

  while (sent < runs) {
    const target = pick(rng, targets)
    // A configuration that does not resolve has no material for flows: anything goes.
    const scenario: ScenarioName = target.invalid ? "random" : weighted(rng, scenarioWeights)
    tally.scenarioRun(scenario)
    const send = async (d: Draft): Promise<Answer | null> => {
      const index = sent++
      const request = toRequest(d)
      const failed = (problems: string[], answer: string) =>
        tally.failure({ target: target.name, scenario, index, problems, request: describeDraft(d), answer })
      let response: Response
      try {
        response = await Auth(request, target.config)
      } catch (error) {
        failed(["Auth() threw"], error instanceof Error ? (error.stack ?? error.message) : String(error))
        return null
      }
      const answer: Answer = { status: response.status, headers: response.headers, text: await response.text() }
      const name = target.cookies.session
      const startedSession = answer.headers.getSetCookie().some((c) => c.startsWith(`${name}=`) && !c.startsWith(`${name}=;`))
      tally.answer(target.name, scenario, answer.status, startedSession)
      const problems = problemsOf(target, d, answer, idp.issuer)
      if (problems.length) failed(problems, `${answer.status} ${answer.headers.get("location") ?? ""}\n${answer.text.slice(0, 500)}`)
      return answer
    }
    const context: Fuzz = { rng, target, idp, sessions, send }
    await scenarios[scenario](context)
  }
  return { tally, sent, tokenRequests: idp.tokenRequests() - tokenRequestsBefore }
}
