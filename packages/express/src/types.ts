/**
 * What the integration needs of Express's requests and responses, typed structurally so that the
 * package depends on neither Express 4's nor Express 5's type declarations: an Express `Request`
 * and `Response` of either version (and Node's own `IncomingMessage` / `ServerResponse`, where
 * only those are read) fit these shapes.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http"

/**
 * The response to an Express request, as far as Sesame writes it, with the `res.locals` values a
 * middleware of Sesame's sets (`session`), so that the handlers after it on a route see their type.
 */
export interface ExpressResponse<Locals extends object = Record<string, unknown>> extends ServerResponse {
  /** Express's per-request values for views and later handlers. */
  locals: Locals
}

/** An Express request, as far as Sesame reads it. */
export interface ExpressRequest extends IncomingMessage {
  /** The request's path and query as the client sent them, before a mount path was stripped. */
  readonly originalUrl?: string
  /** The path the running router or middleware was mounted at (`""` at the application's root). */
  readonly baseUrl?: string
  /** The response to this request, which Express links to it. */
  readonly res?: ServerResponse | undefined
  /** What a body parser that ran before left. */
  body?: unknown
}

/** Express's `next`: on with the next handler, or, given an error, to the error handlers. */
export type NextFunction = (error?: unknown) => void

/**
 * A middleware for `app.use()`, `router.use()` or a route, in Express 4 and 5; `Locals` are the
 * `res.locals` values it sets.
 */
export type Middleware<Locals extends object = object> = (req: ExpressRequest, res: ExpressResponse<Locals>, next: NextFunction) => void

/**
 * An error handler for `app.use()` after the routes, in Express 4 and 5: Express gives it the
 * errors passed to `next(error)` (and, in Express 5, those an async route rejects with).
 */
export type ErrorMiddleware = (error: unknown, req: ExpressRequest, res: ExpressResponse, next: NextFunction) => void
