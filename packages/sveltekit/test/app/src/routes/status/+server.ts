import type { RequestHandler } from "@sveltejs/kit"

// A route that reads no session, and no layout runs for it.
export const GET: RequestHandler = () => new Response("up")
