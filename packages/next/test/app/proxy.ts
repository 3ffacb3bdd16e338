export { auth as proxy } from "./auth.js"

// No proxy runs for /open/… and /api/reads.
export const config = { matcher: ["/((?!open|api/reads|_next/static|_next/image|favicon.ico).*)"] }
