/**
 * The demo account: a password account (the `Password()` provider of lib/providers.ts) whose user,
 * confirmed address and password hash this module puts in the database through Sesame's adapter.
 * `DEMO_EMAIL` and `DEMO_PASSWORD` change it.
 *
 * The account is (re)created whenever it is missing, not only on the first start: a visitor may
 * delete it from the home page, and the next visitor must still be able to sign in with it. So the
 * auth route calls `ensureDemoAccount()` before each password sign-in. A password changed from the
 * home page (or reset) stays: only a missing one is set.
 */
import { builtInModels } from "@sesame/core/adapters"
import { argon2id, importPasswordHash, normalizePassword } from "@sesame/core/password"
import { demoAccount } from "./demo-identity"
import { adapter } from "./store"

// The password provider's default hasher, so that the seeded hash needs no rehash at sign-in.
const hasher = argon2id()

let seeding: Promise<void> | undefined

/** Creates the demo user (confirmed) and its password hash when either is missing; one run at a time. */
export function ensureDemoAccount(): Promise<void> {
  seeding ??= (async () => {
    const user =
      (await adapter.getUserByEmail!(demoAccount.email)) ??
      (await adapter.createUser!({ id: crypto.randomUUID(), email: demoAccount.email, name: "Demo User", emailVerified: new Date() }))
    // Password hashes live in the adapter's store, as the model Sesame declares for them.
    if (!(await adapter.store!.findOne(builtInModels.passwords, { userId: user.id }))) {
      await importPasswordHash(adapter, user.id, await hasher.hash(normalizePassword(demoAccount.password)))
    }
  })().finally(() => {
    seeding = undefined
  })
  return seeding
}
