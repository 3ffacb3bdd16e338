/**
 * Routing review: the README's `authorized` (`!request.nextUrl.pathname.startsWith("/dashboard") ||
 * !!auth?.user`) is handed the raw `nextUrl.pathname`, while Next.js runs the proxy for the decoded
 * path too (dist/server/lib/router-utils/resolve-routes.js:344-350: the matcher is tried on
 * `decodeURIComponent(pathname)`) and serves the page whose decoded path is in its manifest
 * (dist/server/lib/router-utils/filesystem.js:535-538, 633-636: `items.has(curDecodedItemPath)`).
 * So `/%64ashboard` renders app/dashboard/page.tsx while the README's callback lets it through.
 */
import { beforeEach, describe, expect, it } from "vitest"
import { NextRequest } from "next/server.js"
import Sesame, { type PrimaryAuthConfig } from "@sesame/next"
import { current, jwtConfig, newRequest } from "./next-request.js"

beforeEach(() => {
  current.jar.clear()
  newRequest()
})

function proxied(path: string): NextRequest {
  return new NextRequest(`http://localhost:3000${path}`, { headers: { host: "app.example.test:8443", "x-forwarded-proto": "https" } })
}

// As the README configures it.
const readme: PrimaryAuthConfig["callbacks"] = { authorized: ({ request, auth }) => !request.nextUrl.pathname.startsWith("/dashboard") || !!auth?.user }

describe("the README's authorized callback and the path Next.js routes", () => {
  it("legitimate flow: a signed-out visit of /dashboard is sent to sign in", async () => {
    const { auth } = Sesame(jwtConfig({ callbacks: readme }))
    expect((await auth(proxied("/dashboard"))).status).toBe(307)
  })

  it("fails: /%64ashboard (Next.js serves /dashboard for it) is also sent to sign in", async () => {
    // Next.js's filesystem router looks the page up by the decoded path.
    expect(decodeURIComponent(new URL("http://x/%64ashboard").pathname)).toBe("/dashboard")
    const { auth } = Sesame(jwtConfig({ callbacks: readme }))
    const response = await auth(proxied("/%64ashboard"))
    expect(response.headers.get("x-middleware-next")).not.toBe("1")
    expect(response.status).toBe(307)
  })
})
