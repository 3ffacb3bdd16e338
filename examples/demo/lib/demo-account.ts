/**
 * The credentials sign-in: the demo account is a user in the database with an argon2id password
 * hash, created on first use. `DEMO_EMAIL` and `DEMO_PASSWORD` change it (before the first start).
 */
import type { User } from "@sesame/core"
import { hashPassword, verifyPassword } from "./password"
import { adapter, passwordHashOf, setPasswordHash } from "./store"

const demoAccount = {
  email: (process.env.DEMO_EMAIL ?? "demo@example.com").toLowerCase(),
  password: process.env.DEMO_PASSWORD ?? "sesame-demo",
}

let seeded: Promise<void> | undefined

/** Creates the demo user and its password hash, once per database. */
function seed(): Promise<void> {
  seeded ??= (async () => {
    if (passwordHashOf(demoAccount.email)) return
    const user =
      (await adapter.getUserByEmail!(demoAccount.email)) ??
      (await adapter.createUser!({ id: crypto.randomUUID(), email: demoAccount.email, name: "Demo User", emailVerified: new Date() }))
    setPasswordHash(user.id, await hashPassword(demoAccount.password))
  })().catch((error: unknown) => {
    seeded = undefined // the next sign-in tries again
    throw error
  })
  return seeded
}

// Checked against when the address is unknown, so that the answer takes as long either way.
const decoy = hashPassword(crypto.randomUUID())

/** The user whose email and password match, else null. */
export async function checkPassword(email: unknown, password: unknown): Promise<User | null> {
  if (typeof email !== "string" || typeof password !== "string" || password.length > 1024) return null
  await seed()
  const stored = passwordHashOf(email.trim().toLowerCase())
  const ok = await verifyPassword(password, stored?.hash ?? (await decoy))
  if (!stored || !ok) return null
  return adapter.getUser!(stored.userId)
}
