/**
 * What the integration needs of SolidStart's events. `APIEvent` (routes) and `FetchEvent`
 * (middleware) of SolidStart 1.x (vinxi, h3 v1) and 2.x (h3 v2) differ in their native parts but
 * both carry the web `Request`, which is all that is read; typing the events structurally keeps
 * this package free of a dependency on either major version.
 *
 * @module
 */

/** A SolidStart `APIEvent` or `FetchEvent`, as far as Sesame reads it. */
export interface RequestEventLike {
  readonly request: Request
}
