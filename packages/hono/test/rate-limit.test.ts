/**
 * On `@hono/node-server`, the core's limits per client count the socket's address, which the
 * handler hands over: headers a client writes itself escape nothing.
 */
import type { AddressInfo } from "node:net"
import { serve, type ServerType } from "@hono/node-server"
import { memoryCounterStore } from "@sesame/core/password"
import { roomInWindow } from "@sesame/testing"
import { afterAll, beforeAll, expect, it } from "vitest"
import { appFor, config } from "./helpers.js"

const warnings: string[] = []
let server: ServerType
let base: string

beforeAll(async () => {
  const logger = { error: () => {}, warn: (code: string) => void warnings.push(code), debug: () => {} }
  const app = appFor(config({ rateLimit: { enabled: true, store: memoryCounterStore(), rules: { session: { max: 3, window: 60 } } }, logger }))
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => {
      base = `http://localhost:${info.port}`
      resolve()
    })
  })
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

it("counts the socket's address on the endpoints, whatever CF-Connecting-IP or X-Real-IP say", async () => {
  await roomInWindow(60)
  const statuses: number[] = []
  for (let i = 0; i < 5; i++) statuses.push((await fetch(`${base}/auth/session`, { headers: { "cf-connecting-ip": `192.0.2.${i}`, "x-real-ip": `192.0.2.${i}` } })).status)
  expect(statuses).toEqual([200, 200, 200, 429, 429])
  // Known: the handler handed the socket's address over.
  expect(warnings).not.toContain("rate-limit-no-address")
  // The session middleware's reads for the app's own pages are no requests of the client's.
  expect((await fetch(`${base}/`)).status).toBe(200)
})
