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
  loading ??= import("@simplewebauthn/server").catch((error: unknown) => {
    // Forget the failure, so that installing the package takes effect without a restart.
    loading = undefined
    throw new InvalidProvider(
      "WebAuthn providers need the @simplewebauthn/server package: npm install @simplewebauthn/server@14",
      { cause: error },
    )
  })
  return loading
}
