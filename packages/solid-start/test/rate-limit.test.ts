/**
 * SolidStart's event says the socket's address (`clientAddress`): the core's limits per client
 * count it, so a rotated `X-Forwarded-For` escapes nothing.
 */
import { memoryCounterStore } from "@sesame/core/password"
import { roomInWindow } from "@sesame/testing"
import { expect, it } from "vitest"
import { SolidAuth } from "../src/index.js"
import { config, request } from "./helpers.js"

it("counts the event's client address, whatever X-Forwarded-For says, when no proxy is trusted", async () => {
  const handlers = SolidAuth(config({ trustedProxy: false, rateLimit: { enabled: true, store: memoryCounterStore(), rules: { session: { max: 2, window: 60 } } } }))
  await roomInWindow(60)
  const statuses: number[] = []
  for (let i = 0; i < 4; i++) {
    const incoming = request("/api/auth/session", { headers: { "x-forwarded-for": `192.0.2.${i}` } })
    statuses.push((await handlers.GET({ request: incoming, params: {}, clientAddress: "203.0.113.40" } as never))!.status)
  }
  expect(statuses).toEqual([200, 200, 429, 429])
  // Another client goes on.
  expect((await handlers.GET({ request: request("/api/auth/session"), params: {}, clientAddress: "203.0.113.41" } as never))!.status).toBe(200)
})
