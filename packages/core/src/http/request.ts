/**
 * Reading a request: which action it asks for, and its query, body and cookies.
 *
 * Malformed input is the client's fault and ends in a `BadRequest` (a 4xx), never an exception
 * that reaches the user as a 500: unknown paths and methods, undecodable path segments, bodies over
 * the size limit or of an unsupported type, and parameters sent twice (a classic way to smuggle a
 * second `callbackUrl` or `csrfToken` past one layer and into another).
 *
 * @module
 */
import { BadRequest } from "../errors.js"
import { parseCookieHeader, type ParsedCookies } from "./cookies.js"
import type { HeaderReader, Incoming } from "./incoming.js"

/**
 * An endpoint's action: the path under the base path without its provider (`signin`,
 * `two-factor/setup`), one of the dispatcher's table (`actions/index.ts`); or `"module"`, an
 * endpoint of one of the app's modules (`plugins`), whose path is the route's `modulePath`.
 */
export type Action = string

/**
 * The core's own endpoints (the spec's), each with whether its path may name a provider. The
 * dispatcher's core rows serve exactly these; the built-in capabilities declare theirs
 * (`config/features.ts`).
 */
export const coreActions: Readonly<Record<string, boolean>> = Object.freeze({
  providers: false,
  csrf: false,
  session: false,
  signin: true,
  signout: false,
  callback: true,
  error: false,
})

/** The actions a table of rows serves, as `matchRoute` reads them. */
export interface ActionNames {
  /** Every action (`signin`, `two-factor/setup`). */
  readonly actions: ReadonlySet<string>
  /** The actions whose path may name a provider (`signin/:provider`). */
  readonly withProvider: ReadonlySet<string>
}

/** The action of a row keyed `"<METHOD> <action>"` or `"<METHOD> <action>/:provider"`, and whether its path names a provider. */
export function actionOf(key: string): { action: string; withProvider: boolean } {
  const path = key.slice(key.indexOf(" ") + 1)
  const action = path.replace(/\/:provider$/, "")
  return { action, withProvider: action !== path }
}

/** The actions of rows keyed as {@link actionOf} reads them, with the core's. */
export function actionNames(keys: Iterable<string>): ActionNames {
  const actions = new Set(Object.keys(coreActions))
  const withProvider = new Set(Object.keys(coreActions).filter((action) => coreActions[action]))
  for (const key of keys) {
    const { action, withProvider: named } = actionOf(key)
    actions.add(action)
    if (named) withProvider.add(action)
  }
  return { actions, withProvider }
}

export interface Route {
  action: Action
  providerId: string | undefined
  /** A module's endpoint: its path under the base path (`audit-trail/recent`). */
  modulePath?: string
}

/** Whether `segment` begins the path of one of `names`' endpoints: a module's id may not be one. */
export function isActionSegment(segment: string, { actions }: ActionNames): boolean {
  return actions.has(segment) || [...actions].some((action) => action.startsWith(`${segment}/`))
}

/**
 * The action named by `pathname` under `basePath`, or null when the path is not ours. `names` are
 * the dispatcher's actions; `modulePaths` the paths of the modules' endpoints, matched exactly.
 */
export function matchRoute(pathname: string, basePath: string, names: ActionNames, modulePaths?: ReadonlySet<string>): Route | null {
  if (!pathname.startsWith(`${basePath}/`)) return null
  const path = pathname.slice(basePath.length + 1)
  if (modulePaths?.has(path)) return { action: "module", providerId: undefined, modulePath: path }
  const segments = path.split("/").filter(Boolean)
  if (segments.length < 1 || segments.length > 2) return null
  const [action, encodedProvider] = segments as [string, string | undefined]
  const { actions, withProvider } = names
  // An endpoint of two segments names no provider (`two-factor/setup`, `native/token`).
  if (encodedProvider !== undefined && actions.has(`${action}/${encodedProvider}`)) return { action: `${action}/${encodedProvider}`, providerId: undefined }
  if (!actions.has(action)) return null
  if (encodedProvider === undefined) return { action, providerId: undefined }
  if (!withProvider.has(action)) return null
  let providerId: string
  try {
    providerId = decodeURIComponent(encodedProvider)
  } catch {
    return null
  }
  // "undefined" is what a client sends when it builds the URL from a missing id.
  return { action, providerId: providerId === "undefined" ? undefined : providerId }
}

/** Query parameters; a parameter given twice is refused. */
export function parseQuery(search: URLSearchParams): Record<string, string> {
  const query: Record<string, string> = {}
  for (const [key, value] of search) {
    if (Object.hasOwn(query, key)) throw new BadRequest(`Query parameter "${key}" is given more than once.`)
    query[key] = value
  }
  return query
}

function fromEntries(entries: Iterable<[string, FormDataEntryValue | string]>): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const [key, value] of entries) {
    if (typeof value !== "string") throw new BadRequest(`Field "${key}" is a file; only text fields are accepted.`, 415)
    if (Object.hasOwn(body, key)) throw new BadRequest(`Field "${key}" is given more than once.`)
    body[key] = value
  }
  return body
}

/** The body of a POST: urlencoded or multipart form fields, or a JSON object. */
export async function parseBody(incoming: Incoming): Promise<Record<string, unknown>> {
  const declaredType = incoming.headers.get("content-type") ?? ""
  const contentType = declaredType.toLowerCase()
  let bytes: Uint8Array
  try {
    bytes = await incoming.body()
  } catch (error) {
    if (error instanceof BadRequest) throw error
    throw new BadRequest("The request body could not be read.")
  }
  if (bytes.byteLength === 0) return {}
  const text = () => {
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes)
    } catch {
      throw new BadRequest("The request body is not valid UTF-8.")
    }
  }
  if (contentType.startsWith("application/x-www-form-urlencoded")) {
    return fromEntries(new URLSearchParams(text()))
  }
  if (contentType.startsWith("application/json")) {
    let value: unknown
    try {
      value = JSON.parse(text())
    } catch {
      throw new BadRequest("The request body is not valid JSON.")
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) throw new BadRequest("The JSON body must be an object.")
    return value as Record<string, unknown>
  }
  if (contentType.startsWith("multipart/form-data")) {
    let form: FormData
    try {
      // The declared type as sent: its boundary is case-sensitive.
      form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": declaredType } }).formData()
    } catch {
      throw new BadRequest("The multipart body could not be parsed.")
    }
    return fromEntries(form)
  }
  throw new BadRequest("Unsupported content type: send a form (urlencoded or multipart) or JSON.", 415)
}

/** The request's cookies, with the names it carried more than once. */
export function requestCookies(headers: HeaderReader): ParsedCookies {
  return parseCookieHeader(headers.get("cookie"))
}
