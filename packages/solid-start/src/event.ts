/**
 * What the integration needs of SolidStart's events. `APIEvent` (routes), `FetchEvent`
 * (middleware) and the event `getRequestEvent()` returns (server functions, rendering) of
 * SolidStart 1.x (vinxi, h3 v1) and 2.x (h3 v2) differ in their native parts, but all carry the
 * web `Request` and a `response` whose headers are sent with whatever answers the request: a
 * `Headers` in 2.x, h3's proxy of the Node.js response headers in 1.x. Typing the events
 * structurally keeps this package free of a dependency on either major version.
 *
 * @module
 */

/** The headers of the response to a SolidStart request, as far as Sesame writes them. */
export interface ResponseHeadersLike {
  append(name: string, value: string): void
  /** The `Set-Cookie` values set so far (h3 v1's proxy may list `undefined` when there is none). */
  getSetCookie?(): readonly (string | undefined)[]
}

/** A SolidStart `APIEvent` or `FetchEvent`, as far as Sesame reads it. */
export interface RequestEventLike {
  readonly request: Request
  /** Where the refreshed session cookies go; absent outside SolidStart (the guard then only reads). */
  readonly response?: { readonly headers: ResponseHeadersLike }
}
