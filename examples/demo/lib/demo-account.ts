/**
 * The credentials sign-in: the demo account is a user in the database whose password hash Sesame's
 * adapter keeps (argon2id from `@sesame/core/password`). `DEMO_EMAIL` and `DEMO_PASSWORD` change it.
 *
 * The account is (re)created whenever it is missing, not only on the first start: a visitor may
 * delete it from the home page, and the next visitor must still be able to sign in with it.
 */
import type { User } from "@sesame/core"
import { argon2id, dummyVerify, normalizePassword } from "@sesame/core/password"
import { adapter } from "./store"

const demoAccount = {
  email: (process.env.DEMO_EMAIL ?? "demo@example.com").toLowerCase(),
  password: process.env.DEMO_PASSWORD ?? "sesame-demo",
}

const hasher = argon2id()

let seeding: Promise<void> | undefined

/** Creates the demo user and its password hash when either is missing; one run at a time. */
function seed(): Promise<void> {
  seeding ??= (async () => {
    const user =
      (await adapter.getUserByEmail!(demoAccount.email)) ??
      (await adapter.createUser!({ id: crypto.randomUUID(), email: demoAccount.email, name: "Demo User", emailVerified: new Date() }))
    if (!(await adapter.getPassword!(user.id))) {
      await adapter.setPassword!({ userId: user.id, hash: await hasher.hash(normalizePassword(demoAccount.password)), updatedAt: new Date() })
    }
  })().finally(() => {
    seeding = undefined
  })
  return seeding
}

/** Whether the user has a password: a way to sign in that Sesame cannot see (for `unlinkAccount`). */
export async function hasPassword(userId: string): Promise<boolean> {
  return (await adapter.getPassword!(userId)) !== null
}

/** The user whose email and password match, else null. */
export async function checkPassword(email: unknown, password: unknown): Promise<User | null> {
  // A very long password would only cost hashing time.
  if (typeof email !== "string" || typeof password !== "string" || password.length > 1024) return null
  const address = email.trim().toLowerCase()
  const typed = normalizePassword(password)
  if (address === demoAccount.email) await seed()
  const user = await adapter.getUserByEmail!(address)
  const stored = user ? await adapter.getPassword!(user.id) : null
  // The same work for an address without a password: the answer's timing does not tell who has one.
  if (!user || !stored) return dummyVerify(hasher, typed).then(() => null)
  if (!(await hasher.verify(stored.hash, typed))) return null
  if (hasher.needsRehash?.(stored.hash)) await adapter.setPassword!({ userId: user.id, hash: await hasher.hash(typed), updatedAt: new Date() })
  return user
}
