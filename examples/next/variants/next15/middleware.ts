/**
 * The guard for Next.js 15 (Edge runtime): copy this file to the app's root in place of proxy.ts.
 * The configuration is the same auth.ts: it uses JWT sessions and nothing Node-only, so it runs
 * on the Edge runtime.
 */
export { auth as middleware } from "./auth"

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
}
