/**
 * The secret used outside production when none is configured.
 *
 * It must be the same wherever the app reads a session: a framework bundles the core once per
 * target (Next.js makes separate bundles for the proxy, the route handlers and the pages, each
 * with its own copy of this module), runs several processes (a dev server and its workers, a
 * second dev server), and restarts on every change. A value held by one module instance would
 * differ between them, and a cookie sealed by one would read as signed out in the next: a silent
 * sign-in loop.
 *
 * So the value comes from a store picked by export condition (`#development-secret`, as
 * `#crypto`): on Node.js a file in the project that every process shares
 * (`development-secret-node.ts`); elsewhere (Edge, workers, browsers) no store at all, and a
 * missing secret is a configuration error naming the fix rather than a secret of its own that the
 * Node side would not share (`development-secret-web.ts`). The result is kept on `globalThis`
 * under a registered symbol, so every copy of the core in one JavaScript realm asks the store
 * once and gets the same answer, the per-process fallback included.
 *
 * A generated secret serves loopback hosts only (`http/context.ts`), whichever store it came from.
 *
 * @module
 */
import { loadDevelopmentSecret } from "#development-secret"

/** What the store answered. */
export type DevelopmentSecret =
  /** Read from (or just written to) the project's file: shared by every process started there. */
  | { readonly kind: "shared"; readonly value: string }
  /** The file could not be read or written (a read-only file system): this process's own value. */
  | { readonly kind: "process"; readonly value: string }
  /** This runtime has no file system to share a secret through. */
  | { readonly kind: "unavailable" }

const memo = Symbol.for("sesame.development-secret")

type Holder = { [memo]?: DevelopmentSecret }

/** The development secret of this realm: asked of the store once, then shared by every copy of the core. */
export function developmentSecret(): DevelopmentSecret {
  const holder = globalThis as typeof globalThis & Holder
  holder[memo] ??= Object.freeze(loadDevelopmentSecret())
  return holder[memo]
}
