/**
 * `@node-rs/argon2`, loaded on first use.
 *
 * It is an optional peer dependency: only apps with password sign-in install it. It is a native
 * addon (Rust, through N-API), so it runs on Node.js and not on edge runtimes; the core must not
 * import it statically, or every edge bundle of an app would try to load it. Loading it on the
 * first password request keeps it off every other path, and a runtime that cannot load it gets a
 * configuration error that names the package.
 *
 * @module
 */
import { InvalidProvider } from "../errors.js"

type Argon2Library = typeof import("@node-rs/argon2")

let loading: Promise<Argon2Library> | undefined

/** The library; throws a configuration error naming the package when it cannot be loaded. */
export function argon2Library(): Promise<Argon2Library> {
  // Bundlers must leave this import to the runtime: the package is optional (a bundler that
  // resolves it fails the build of an app without it) and native (a bundler cannot inline it).
  loading ??= (import(/* webpackIgnore: true */ /* turbopackIgnore: true */ /* @vite-ignore */ "@node-rs/argon2") as Promise<Argon2Library>).catch(
    (error: unknown) => {
      // Forget the failure, so that installing the package takes effect without a restart.
      loading = undefined
      throw new InvalidProvider(
        "Password sign-in needs the @node-rs/argon2 package, on Node.js (it is a native module, not available on edge runtimes): npm install @node-rs/argon2@2",
        { cause: error },
      )
    },
  )
  return loading
}
