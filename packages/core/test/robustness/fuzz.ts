/**
 * What a scenario works with: the run's randomness, the configuration it attacks, the real
 * session cookies, and `send`, which puts a request through `Auth()` and checks the answer
 * against the properties (`properties.ts`). Plus the small helpers every scenario uses.
 */
import type { DevIdp } from "@sesame/dev-idp"
import { origin } from "../helpers.js"
import { hostileHeaders, junkCookies, readsNoBody, type Draft } from "./generators.js"
import { chance, type Rng } from "./random.js"
import type { RealCookie, Target } from "./targets.js"

/** A response as the fuzzer keeps it (the body already read, for the checks). */
export interface Answer {
  status: number
  headers: Headers
  text: string
}

export interface Fuzz {
  rng: Rng
  target: Target
  idp: DevIdp
  /** Real session cookies of every target. */
  sessions: readonly RealCookie[]
  /** Sends through `Auth()` and checks the properties; null when `Auth()` threw. */
  send(d: Draft): Promise<Answer | null>
}

export type Scenario = (f: Fuzz) => Promise<void>

/**
 * The fetch metadata a browser sends with a request made by a page of `site` (the app's own by
 * default): a cross-site guard must let the app's own requests through, so that what a scenario
 * broke on purpose is what gets tested.
 */
export function fromSite(d: Draft, site = origin): Draft {
  d.headers.set("sec-fetch-site", site === origin ? "same-origin" : "cross-site")
  if (!readsNoBody(d)) d.headers.set("origin", site)
  return d
}

/** Hostile headers and junk cookies around a request (which mostly comes from the app's page). */
export function hostile(f: Fuzz, d: Draft, cookies = true): Draft {
  if (chance(f.rng, 0.75)) fromSite(d)
  hostileHeaders(f.rng, d)
  if (cookies) junkCookies(f.rng, d, f.target, f.sessions)
  return d
}

export function path(t: Target, route: string): string {
  return `${t.basePath}/${route}`
}

export function csrfCookie(t: Target): string {
  const csrf = t.material.csrf!
  return `${csrf.name}=${csrf.value}`
}

export function form(d: Draft, fields: Record<string, string>): Draft {
  d.headers.set("content-type", "application/x-www-form-urlencoded")
  d.body = new URLSearchParams(fields).toString()
  return d
}

export function json(d: Draft, value: unknown): Draft {
  d.headers.set("content-type", "application/json")
  d.body = JSON.stringify(value)
  return d
}

/** The cookies a response sets, as `name=value` pairs for the next request. */
export function setCookies(answer: Answer): string[] {
  return answer.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .filter((pair) => !pair.endsWith("="))
}

