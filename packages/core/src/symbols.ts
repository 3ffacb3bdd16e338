/**
 * Escape hatches, as symbols so that they cannot come from JSON or environment variables.
 *
 * @module
 */

/**
 * Turns CSRF checks off: `Auth(request, { ...config, skipCSRFCheck })`.
 *
 * WARNING: only for callers that are protected against CSRF another way, such as framework
 * server actions. Never for endpoints a browser can post a form to.
 */
export const skipCSRFCheck: unique symbol = Symbol.for("sesame.skip-csrf-check")

/**
 * Makes `Auth()` return its internal response (`{ status, headers, body, redirect, cookies }`)
 * instead of a `Response`, and throw `AuthError`s instead of redirecting. For integrations.
 */
export const raw: unique symbol = Symbol.for("sesame.raw")

/**
 * The `fetch` a provider's requests go through (discovery, token, userinfo, key set):
 * `{ ...provider, [customFetch]: myFetch }`, as Auth.js's `customFetch`. For a proxy, extra
 * headers, or a fetch that refuses addresses inside the app's network (the SSO plugin's, for
 * providers that tenants configure).
 */
export const customFetch: unique symbol = Symbol.for("sesame.custom-fetch")
