/**
 * API tokens in the demo. In the browser: the home page's "API token" button (pressed from the
 * keyboard) gets a token for the demo user on the server and calls the demo's API with it, which
 * answers with the user's id, the one in the database. Then the API itself, over HTTP: it accepts
 * a token from `GET /api/auth/token`, and refuses a request without one (the browser's session
 * cookies ride along: they are no credential there), a tampered token, and a token signed by an
 * attacker whose key set a forged `Host` header points at.
 */
import { generateKeyPairSync, sign, type KeyObject } from "node:crypto"
import { request as httpRequest } from "node:http"
import Database from "better-sqlite3"
import { expect } from "vitest"
import type { Browser } from "playwright-core"
import { verifyApiToken } from "@sesame/core/verify"
import { serve } from "@sesame/testing"
import { demoAccount, shot, signedInDemoUser, signOut } from "./flows.js"

const audience = "sesame-demo-api"

/** The demo user's id, read from the app's database: what the API must say the caller is. */
function demoUserId(databaseFile: string): string {
  const database = new Database(databaseFile, { readonly: true, fileMustExist: true })
  try {
    const row = database.prepare("SELECT id FROM sesame_users WHERE email = ?").get(demoAccount.email) as { id: string } | undefined
    expect(row, "the demo user is in the database").toBeDefined()
    return row!.id
  } finally {
    database.close()
  }
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url")
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as Record<string, unknown>

/** A JWT signed with an Ed25519 key of the test's own, as an attacker would make one. */
function signedJwt(key: KeyObject, header: object, claims: object): string {
  const input = `${base64url(header)}.${base64url(claims)}`
  return `${input}.${sign(null, Buffer.from(input), key).toString("base64url")}`
}

/** GET `path` on the app's socket with exactly these headers (`Host` among them), as any HTTP client may send them. */
function rawGet(origin: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: hostname, port, path, headers }, (response) => {
      let text = ""
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => (text += chunk))
      response.on("end", () => resolve({ status: response.statusCode!, body: JSON.parse(text) }))
    })
    request.on("error", reject)
    request.end()
  })
}

/**
 * An attacker's token for `userId`: their own key, published by their own server, and their
 * server's URL as the issuer. An API that took its issuer from the request's `Host` would fetch
 * that key set and believe the token. Returns the token, the attacker's host, and how often their
 * key set was fetched.
 */
async function attackerToken(userId: string) {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519")
  const jwk = { ...publicKey.export({ format: "jwk" }), kid: "attacker-key", alg: "EdDSA", use: "sig" }
  let fetched = 0
  const server = await serve((request) => {
    if (new URL(request.url).pathname !== "/api/auth/jwks") return new Response("not found", { status: 404 })
    fetched++
    return Response.json({ keys: [jwk] })
  })
  const issuer = `${server.origin}/api/auth`
  const now = Math.floor(Date.now() / 1000)
  const token = signedJwt(privateKey, { alg: "EdDSA", kid: "attacker-key", typ: "at+jwt" }, { iss: issuer, aud: audience, sub: userId, iat: now, nbf: now, exp: now + 600, jti: "forged" })
  return { token, issuer, host: new URL(server.origin).host, fetched: () => fetched, close: () => server.close() }
}

/** The home page's button, then the API's answers; `databaseFile` is the app's SQLite file. */
export async function apiTokenFlow(browser: Browser, origin: string, databaseFile: string): Promise<void> {
  const { context, page } = await signedInDemoUser(browser, origin)
  // Read after the sign-in, which recreates the demo user when an earlier flow deleted it.
  const userId = demoUserId(databaseFile)

  const section = page.getByRole("region", { name: "API token" })
  await section.getByRole("button", { name: "Call the API with a token" }).focus()
  await page.keyboard.press("Enter")
  const answer = section.getByTestId("api-answer")
  await expect.poll(() => answer.textContent()).toContain(`The API says you are ${userId}.`)
  const claim = (name: string) => section.locator(`tr[data-claim="${name}"] td`).first().textContent()
  expect(await claim("sub")).toBe(userId)
  expect(await claim("aud")).toBe(audience)
  expect(await claim("iss")).toBe(`${origin}/api/auth`)
  await shot(page, "home-api-token")

  // The API over HTTP, with the browser's cookies on every request (the context's own client).
  const me = (headers: Record<string, string> = {}) => page.request.get("/api/me", { headers })
  const grant = (await (await page.request.get("/api/auth/token")).json()) as { token: string; expiresAt: string }
  const accepted = await me({ authorization: `Bearer ${grant.token}` })
  expect(accepted.status()).toBe(200)
  expect(await accepted.json()).toEqual({ user: userId, expiresAt: grant.expiresAt })

  // Signed in, but no token: the session cookie does not count.
  const bare = await me()
  expect(bare.status()).toBe(401)
  expect(await bare.json()).toEqual({ error: "no-token" })
  expect(bare.headers()["www-authenticate"]).toBe(`Bearer realm="${audience}"`)

  // The same token made out to another user: its signature no longer matches.
  const [header, , signature] = grant.token.split(".")
  const tampered = `${header}.${base64url({ ...claimsOf(grant.token), sub: "someone-else" })}.${signature}`
  const refused = await me({ authorization: `Bearer ${tampered}` })
  expect(refused.status()).toBe(401)
  expect(await refused.json()).toEqual({ error: "invalid-signature" })
  expect(refused.headers()["www-authenticate"]).toContain('error="invalid_token"')

  // A forged Host (and X-Forwarded-Host) naming the attacker's server does not choose whose keys the API trusts.
  const attacker = await attackerToken(userId)
  try {
    const forged = await rawGet(origin, "/api/me", {
      host: attacker.host,
      "x-forwarded-host": attacker.host,
      "x-forwarded-proto": "http",
      authorization: `Bearer ${attacker.token}`,
    })
    expect(forged.status).toBe(401)
    expect(attacker.fetched()).toBe(0)
    // The forged token is well made: checked against the attacker's keys and issuer, it passes.
    const believed = await verifyApiToken(attacker.token, { jwksUrl: `${attacker.issuer}/jwks`, issuer: attacker.issuer, audience })
    expect(believed.sub).toBe(userId)
  } finally {
    await attacker.close()
  }

  await signOut(page)
  await context.close()
}
