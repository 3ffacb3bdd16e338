/**
 * The app of the README on Node.js through `@hono/node-server`, over real HTTP: sign-in from the
 * app's own form, the session and its cookies, the guards, sign-out; and a forged `Host`, a
 * forged `X-Forwarded-Host`, an absolute-form request target and a `//` path sent on a raw socket
 * (node-server builds the request's URL from them), none of which reaches a redirect.
 */
import { request as httpRequest } from "node:http"
import type { AddressInfo } from "node:net"
import { serve, type ServerType } from "@hono/node-server"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { appFor, config, CookieJar, users } from "./helpers.js"

let server: ServerType
let base: string

beforeAll(async () => {
  const app = appFor(config({ session: { updateAge: 0 } }))
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => {
      base = `http://localhost:${info.port}`
      resolve()
    })
  })
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

async function send(path: string, jar: CookieJar, init: { form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  headers.set("cookie", jar.header())
  const body = init.form ? new URLSearchParams(init.form) : undefined
  if (body) headers.set("origin", base)
  const response = await fetch(`${base}${path}`, { method: body ? "POST" : "GET", headers, body, redirect: "manual" })
  jar.apply(response)
  return response
}

/** A GET of `path` as written (an absolute URL too) with the headers given, `Host` included, on a raw socket (fetch sets its own). */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const url = new URL(base)
    const req = httpRequest({ host: "127.0.0.1", port: url.port, path, headers: { host: url.host, ...headers } }, (res) => {
      res.resume()
      res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }))
    })
    req.on("error", reject)
    req.end()
  })
}

describe("on Node.js through @hono/node-server", () => {
  it("signs in from the app's form, shows and renews the session, guards, and signs out", async () => {
    const jar = new CookieJar()
    const guarded = await send("/account/profile", jar)
    expect(guarded.status).toBe(303)
    expect(guarded.headers.get("location")).toBe(`${base}/auth/signin?callbackUrl=%2Faccount%2Fprofile`)
    expect((await send("/api/me", jar, { headers: { accept: "application/json" } })).status).toBe(401)

    const signedIn = await send("/login", jar, { form: { username: "alice", password: users.alice.password, redirectTo: "/account/profile" } })
    expect(signedIn.status).toBe(303)
    expect(signedIn.headers.get("location")).toBe(`${base}/account/profile`)
    const token = jar.get("sesame.session-token")
    const page = await send("/account/profile", jar)
    expect(await page.text()).toBe("profile of Alice")
    expect(jar.get("sesame.session-token")).not.toBe(token)

    const signedOut = await send("/logout", jar, { form: {} })
    expect(signedOut.status).toBe(303)
    expect(jar.get("sesame.session-token")).toBeUndefined()
    expect((await send("/account/profile", jar)).status).toBe(303)
  })

  it("never writes a forged Host, X-Forwarded-Host or request target into the guard's redirect", async () => {
    const forged = await rawGet("/account/profile", { host: "evil.example" })
    expect(forged.status).toBe(303)
    expect(forged.location).toBe("/auth/signin?callbackUrl=%2Faccount%2Fprofile")
    const guarded = `${base}/auth/signin?callbackUrl=%2Faccount%2Fprofile`
    expect((await rawGet("/account/profile", {})).location).toBe(guarded)
    expect((await rawGet("/account/profile", { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" })).location).toBe(guarded)
    // An absolute-form target naming another host: node-server takes the path, the origin stays ours.
    expect(await rawGet("http://evil.example/account/profile", {})).toEqual({ status: 303, location: guarded })
    // A path starting with // is a path here, not a protocol-relative address: no route, no redirect.
    expect(await rawGet("//evil.example/account/profile", {})).toEqual({ status: 404, location: undefined })
  })
})
