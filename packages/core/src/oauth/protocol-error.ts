/**
 * What of a failed protocol step may reach the logs.
 *
 * oauth4webapi attaches what it checked to its errors: the callback parameters (with the code), a
 * token response body (with the tokens), ID token claims. Those must never be logged, and a logger
 * that prints causes would print them. So a failure is logged as a copy that keeps the message,
 * the stack, the error code, the provider's OAuth `error` and `error_description`, the HTTP status,
 * and the name of the claim or attribute that failed a check, and nothing else.
 *
 * @module
 */

const maxDepth = 4

function field(source: object, name: string): string | number | undefined {
  const value = (source as Record<string, unknown>)[name]
  return typeof value === "string" || typeof value === "number" ? value : undefined
}

/** A copy of `error` without the values it was checking (see the module comment). */
export function loggableError(error: unknown, depth = 0): Error {
  if (!(error instanceof Error)) return new Error(`A ${typeof error} was thrown.`)
  const details: string[] = []
  for (const name of ["code", "error", "error_description", "status"]) {
    const value = field(error, name)
    if (value !== undefined) details.push(`${name}=${JSON.stringify(value)}`)
  }
  const cause: unknown = error.cause
  if (cause && typeof cause === "object" && !(cause instanceof Error)) {
    for (const name of ["claim", "attribute"]) {
      const value = field(cause, name)
      if (value !== undefined) details.push(`${name}=${JSON.stringify(value)}`)
    }
  }
  const message = details.length > 0 ? `${error.message} (${details.join(", ")})` : error.message
  const copy = new Error(message, cause instanceof Error && depth < maxDepth ? { cause: loggableError(cause, depth + 1) } : undefined)
  copy.name = error.name
  if (error.stack) copy.stack = `${copy.name}: ${message}\n${error.stack.split("\n").slice(1).join("\n")}`
  return copy
}
