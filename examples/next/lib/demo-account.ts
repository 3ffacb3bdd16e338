/**
 * The demo account of the credentials sign-in. Its address and password come from the environment
 * (`DEMO_EMAIL`, `DEMO_PASSWORD`), with the values `npm start` prints as defaults.
 *
 * Only WebCrypto is used: this module is part of the Edge bundle when the guard runs as
 * `middleware.ts`.
 */
import type { User } from "@sesame/core"

const email = (process.env.DEMO_EMAIL ?? "demo@example.com").toLowerCase()
const password = process.env.DEMO_PASSWORD ?? "sesame-demo"

export const demoUser: User = { id: "demo-user", name: "Demo User", email }

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))
}

/** Compares the digests of both values byte by byte, without stopping early. */
async function same(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([digest(given), digest(expected)])
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!
  return difference === 0
}

/** The demo user when the address and password match, else null. */
export async function checkDemoAccount(givenEmail: unknown, givenPassword: unknown): Promise<User | null> {
  const emailMatches = await same(String(givenEmail ?? "").trim().toLowerCase(), email)
  const passwordMatches = await same(String(givenPassword ?? ""), password)
  return emailMatches && passwordMatches ? demoUser : null
}
