/**
 * What every answer must satisfy, whatever the request:
 *
 * - No 5xx from a valid configuration, with two exceptions that are answers the request chose,
 *   not failures: the error page asked to show `Configuration` (`GET error?error=Configuration`
 *   answers 500, like Auth.js: the page's status says what it shows), and the 503 that tells a
 *   prefetch or link preview that sign-in links are not fetched ahead.
 * - Nor does a valid configuration send the browser to the `Configuration` error (where it would
 *   get that 500 page, one redirect later) unless the request asked for that page itself: the
 *   code turns any unexpected exception into that redirect, so it is a server error in disguise.
 * - A deliberately invalid configuration answers 5xx only with the configuration error: the JSON
 *   message, or the configuration error page.
 * - A `Location` (or the `url` of a redirect returned as JSON) is an absolute http(s) URL; where the
 *   public URL comes from AUTH_URL, its origin is the app's or the IdP's, whatever host the request
 *   named.
 * - No body shows a stack trace or a source file path.
 *
 * Specific 4xx codes are not asserted: what a hostile request gets refused with is the business of
 * the endpoint, and changes.
 */
import { origin } from "../helpers.js"
import { draftUrl, readsNoBody, type Draft } from "./generators.js"
import type { Answer } from "./fuzz.js"
import type { Target } from "./targets.js"

const configurationMessage = "There is a problem with the server configuration"

/** A line of a stack trace, or a path of a source file on this machine. */
const leaks = [
  /^\s*at\s+\S.*:\d+:\d+\)?\s*$/m,
  /\bat\s+(?:async\s+)?[\w$.<>]+\s+\((?:file:\/\/|node:|\/)[^)]*\)/,
  /file:\/\/\//,
  /(?:^|[\s"'(])\/(?:work|home|root|tmp|usr)\/[\w./-]+/,
  /node_modules\//,
  /\bpackages\/core\/src\//,
  /\b[\w-]+\.(?:ts|mts|cts):\d+/,
]

/** The path as Sesame's router sees it (empty segments dropped). */
function normalisedPath(d: Draft): string {
  return new URL(draftUrl(d)).pathname.replace(/\/+/g, "/").replace(/\/$/, "")
}

function firstQuery(d: Draft, name: string): string | undefined {
  return new URL(draftUrl(d)).searchParams.get(name) ?? undefined
}

function isPage(d: Draft): boolean {
  return readsNoBody(d)
}

/** The configuration error: the JSON message, or the built-in configuration error page. */
export function isConfigurationError(d: Draft, answer: Answer): boolean {
  if (answer.status !== 500) return false
  const type = answer.headers.get("content-type") ?? ""
  if (d.method.toUpperCase() === "HEAD") return answer.text === "" && (type.startsWith("application/json") || type.startsWith("text/html"))
  if (type.startsWith("text/html")) return isPage(d) && /<html[\s>]/i.test(answer.text)
  if (!type.startsWith("application/json")) return false
  try {
    const body = JSON.parse(answer.text) as { message?: unknown }
    return typeof body.message === "string" && body.message.startsWith(configurationMessage)
  } catch {
    return false
  }
}

/** `GET error?error=Configuration`: the built-in error page showing that error answers 500. */
function asksForConfigurationPage(t: Target, d: Draft, answer: Answer): boolean {
  return (
    isPage(d) &&
    answer.status === 500 &&
    normalisedPath(d) === `${t.basePath}/error` &&
    firstQuery(d, "error") === "Configuration" &&
    (answer.headers.get("content-type") ?? "").startsWith("text/html")
  )
}

const prefetchHeaders = ["sec-purpose", "purpose", "x-purpose", "x-moz"]

/** A prefetch or preview of an email link is told 503: links are not fetched ahead. */
function prefetchedLink(t: Target, d: Draft, answer: Answer): boolean {
  return (
    isPage(d) &&
    answer.status === 503 &&
    /\/callback\/[^/]+$/.test(normalisedPath(d)) &&
    normalisedPath(d).startsWith(`${t.basePath}/`) &&
    prefetchHeaders.some((name) => /prefetch|prerender|preview/i.test(d.headers.get(name) ?? ""))
  )
}

/** The redirect target of an answer: its Location, or the `url` of a redirect returned as JSON. */
export function redirectTarget(d: Draft, answer: Answer): string | undefined {
  const location = answer.headers.get("location")
  if (location !== null) return location
  if (!d.headers.has("x-auth-return-redirect") || !(answer.headers.get("content-type") ?? "").startsWith("application/json")) return undefined
  try {
    const body = JSON.parse(answer.text) as unknown
    if (body && typeof body === "object" && !Array.isArray(body) && Object.keys(body).length === 1 && "url" in body) return String(body.url)
  } catch {
    // Not JSON: not a redirect either.
  }
  return undefined
}

function locationProblem(t: Target, d: Draft, target: string, idpOrigin: string): string | null {
  let url: URL
  try {
    url = new URL(target)
  } catch {
    return `redirects to ${JSON.stringify(target.slice(0, 200))}, which is not an absolute URL`
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `redirects to a ${url.protocol} URL`
  if (t.fixedOrigin && url.origin !== origin && url.origin !== idpOrigin) return `redirects to ${url.origin}, neither the app's origin nor the IdP's`
  if (!t.invalid && url.searchParams.get("error") === "Configuration" && firstQuery(d, "error") !== "Configuration") {
    return "sends the browser to the Configuration error (a server error, one redirect later)"
  }
  return null
}

/** Every property the answer breaks (empty when it is fine). */
export function problemsOf(t: Target, d: Draft, answer: Answer, idpOrigin: string): string[] {
  const problems: string[] = []
  if (answer.status >= 500) {
    const allowed = t.invalid ? isConfigurationError(d, answer) : asksForConfigurationPage(t, d, answer) || prefetchedLink(t, d, answer)
    if (!allowed) problems.push(`answered ${answer.status}${t.invalid ? " without the configuration error" : ""}`)
  }
  const target = redirectTarget(d, answer)
  if (target !== undefined) {
    const problem = locationProblem(t, d, target, idpOrigin)
    if (problem) problems.push(problem)
  }
  const leak = leaks.find((pattern) => pattern.test(answer.text))
  if (leak) problems.push(`the body shows a stack trace or a file path: ${JSON.stringify(leak.exec(answer.text)![0].slice(0, 200))}`)
  return problems
}
