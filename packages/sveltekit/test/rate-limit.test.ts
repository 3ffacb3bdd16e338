/**
 * SvelteKit reports the socket's address (`getClientAddress()`): the core's limits per client count
 * it, so a rotated `X-Forwarded-For` escapes nothing, and another client goes on.
 */
import { roomInWindow } from "@sesame/testing"
import { beforeAll, expect, it } from "vitest"
import { startApp, type Send } from "./kit.js"

let send: Send

beforeAll(async () => {
  send = await startApp()
}, 600_000)

it("counts getClientAddress(), whatever X-Forwarded-For says; another address goes on", async () => {
  await roomInWindow(60)
  const statuses: number[] = []
  for (let i = 0; i < 5; i++) {
    statuses.push((await send("/auth/session", { config: "limited", address: "203.0.113.60", headers: { "x-forwarded-for": `192.0.2.${i}` } })).status)
  }
  expect(statuses).toEqual([200, 200, 200, 429, 429])
  expect((await send("/auth/session", { config: "limited", address: "203.0.113.61" })).status).toBe(200)
})
