/**
 * The `nativeApps` option's types.
 *
 * @module
 */

/**
 * The `nativeApps` option: sign-in for mobile and desktop apps through the system browser, as RFC
 * 8252 recommends. The app opens `<basePath>/native/authorize` with a PKCE challenge; the user signs
 * in there as on the web; the browser is sent to the app's redirect URI with a one-time code, which
 * the app exchanges (with its PKCE verifier) at `POST <basePath>/native/token` for a session token.
 * The app then sends `Authorization: Bearer <session token>` and every session read accepts it. The
 * sessions are database sessions, revoked like any other (`revokeSession`, signing out).
 */
export interface NativeAppOptions {
  /**
   * Where apps may receive the code, exactly: a private-use scheme in reverse-domain form
   * (`com.example.app:/oauth/callback`), an `https` URL the app has claimed (a universal or app
   * link), or a loopback URL for desktop apps (`http://127.0.0.1/callback`, `http://[::1]/callback`;
   * any port matches, as RFC 8252 §7.3 asks). Anything else is refused without a redirect.
   */
  redirectUris: string[]
}

/** The configuration's option for native apps (part of `AuthConfig`). */
export interface NativeAppsConfig {
  /** Sign-in for mobile and desktop apps, with bearer sessions (see {@link NativeAppOptions}). Off by default; needs database sessions. */
  nativeApps?: NativeAppOptions
}
