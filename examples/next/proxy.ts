/**
 * The guard (Next.js 16, Node.js runtime): keeps sessions alive on every page and applies
 * `callbacks.authorized` from auth.ts. For Next.js 15, use variants/next15/middleware.ts instead
 * (the two files cannot coexist).
 */
export { auth as proxy } from "./auth"

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
}
