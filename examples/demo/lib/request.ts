/**
 * A web `Request` carrying the browser's headers (its cookies among them), for the `@sesame/core`
 * functions that act for the signed-in user (`listSessions`, `revokeSession`, `listPasskeys`…)
 * from server components and server actions, where Next.js gives headers but no request.
 */
import { headers } from "next/headers"
import { basePath } from "../auth"

export async function browserRequest(): Promise<Request> {
  const incoming = await headers()
  const first = (name: string) => incoming.get(name)?.split(",")[0]?.trim()
  const host = first("x-forwarded-host") ?? first("host") ?? "localhost"
  const protocol = first("x-forwarded-proto") === "https" ? "https" : "http"
  return new Request(`${protocol}://${host}${basePath}/session`, { headers: new Headers(incoming) })
}
