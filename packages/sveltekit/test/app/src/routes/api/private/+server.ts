import { json, type RequestHandler } from "@sveltejs/kit"

// Guarded by the hook (`authorize` in hooks.server.ts), not here.
export const GET: RequestHandler = () => json({ secret: "private data" })
