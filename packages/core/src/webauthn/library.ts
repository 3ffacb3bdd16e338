/**
 * `@simplewebauthn/server`, loaded on first use.
 *
 * It is an optional peer dependency: apps without passkeys do not install it or its ASN.1 and
 * X.509 parsers, and apps with passkeys load it only when a passkey request arrives, so a session
 * read never pays for it. It works on WebCrypto (`globalThis.crypto`) and imports no Node module,
 * so the passkey endpoints run on edge runtimes too.
 *
 * @module
 */
import { InvalidProvider } from "../errors.js"

type SimpleWebAuthnServer = typeof import("@simplewebauthn/server")

let loading: Promise<SimpleWebAuthnServer> | undefined

/** The library; throws a configuration error naming the package when it is not installed. */
export function simpleWebAuthn(): Promise<SimpleWebAuthnServer> {
  // Bundlers must leave this import to the runtime: the package is optional, and webpack (Next.js
  // 15) fails the whole build of an app that does not install it when it resolves the import
  // itself. At run time Node finds it in the app's node_modules, on the first passkey request.
  loading ??= (import(/* webpackIgnore: true */ /* turbopackIgnore: true */ /* @vite-ignore */ "@simplewebauthn/server") as Promise<SimpleWebAuthnServer>).catch((error: unknown) => {
    // Forget the failure, so that installing the package takes effect without a restart.
    loading = undefined
    throw new InvalidProvider(
      "WebAuthn providers need the @simplewebauthn/server package: npm install @simplewebauthn/server@14",
      { cause: error },
    )
  })
  return loading
}
