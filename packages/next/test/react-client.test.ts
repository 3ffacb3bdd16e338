/**
 * The browser client's reads against the real handlers on a local HTTP server (Node's fetch
 * plays the browser): one session request in flight at a time, whoever asks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { serve, type TestServer } from "@sesame/testing"
import Sesame from "@sesame/next"
import { fetchSession, getCsrfToken, getProviders, getSession } from "../src/react/client.js"
import { jwtConfig } from "./next-request.js"

let server: TestServer
let sessionRequests = 0

beforeAll(async () => {
  const { handlers } = Sesame(jwtConfig())
  server = await serve((request) => {
    if (new URL(request.url).pathname === "/api/auth/session") sessionRequests++
    return handlers.GET(request as Parameters<typeof handlers.GET>[0])
  })
})
afterAll(() => server?.close())

describe("@sesame/next/react reads", () => {
  it("shares one in-flight session request among every caller, and asks again once it is answered", async () => {
    const basePath = `${server.origin}/api/auth`
    sessionRequests = 0
    const answers = await Promise.all([fetchSession({ basePath }), getSession({ basePath }), fetchSession({ basePath })])
    expect(answers).toEqual([null, null, null])
    expect(sessionRequests).toBe(1)
    await getSession({ basePath })
    expect(sessionRequests).toBe(2)
  })

  it("reads the CSRF token and the providers at the given base path", async () => {
    const basePath = `${server.origin}/api/auth`
    expect(await getCsrfToken({ basePath })).toMatch(/^[A-Za-z0-9_-]{20,}$/)
    expect(await getProviders({ basePath })).toMatchObject({ credentials: { id: "credentials", type: "credentials" } })
    expect(await getProviders({ basePath: `${server.origin}/nowhere` })).toBeNull()
  })
})
