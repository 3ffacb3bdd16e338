/**
 * The conformance suite of the app's user fields (`user.fields`; `Adapter.withUserFields`): the
 * adapter bound to their model writes them with the user and returns them, typed as declared, from
 * every read of a user, `getSessionAndUser` and `listUsers` included.
 *
 * ```ts
 * import { runUserFieldsTests } from "@sesame/adapter-test"
 * runUserFieldsTests({ adapter: MyAdapter(client), prepare: (model) => migrate(client, { models: [model] }) })
 * ```
 *
 * `prepare` adds the fields' columns to the users table (a store without a schema needs nothing).
 * Each test makes its own users, so the suite can run against a table that already holds rows.
 *
 * @module
 */
import type { Adapter, AdapterUser, ModelDeclaration } from "@sesame/core/adapters"
import { userModel } from "@sesame/core/adapters"
import { beforeAll, describe, expect, it } from "vitest"

/** The fields the suite declares: every type, a renamed column, required fields with defaults, optional ones. */
export const userFieldsTestModel: ModelDeclaration = userModel({
  role: { type: "string", default: "member" },
  plan: { type: "string", optional: true, column: "plan_name" },
  seats: { type: "integer", default: 1 },
  beta: { type: "boolean", default: false },
  trialEnds: { type: "date", optional: true },
  prefs: { type: "json", optional: true },
  bio: { type: "text", optional: true },
})

export interface UserFieldsTestOptions {
  /** The title of the suite. */
  name?: string
  /** The adapter, not yet bound: the suite binds it with `withUserFields`. */
  adapter: Adapter
  /** Adds the model's columns to the users table (SQL: the adapter's `migrate` with `models: [model]`). */
  prepare?: (model: ModelDeclaration) => Promise<void> | void
  /** Parts the adapter does not provide: `transactions`. */
  skip?: "transactions"[]
}

const unique = () => crypto.randomUUID().slice(0, 8)
/** A date with whole seconds, as every store keeps them. */
const at = (offsetMs = 0) => new Date(Math.floor((Date.now() + offsetMs) / 1000) * 1000)

type WithFields = AdapterUser & Record<string, unknown>

/** Registers the suite. */
export function runUserFieldsTests(options: UserFieldsTestOptions): void {
  const skip = new Set(options.skip ?? [])
  describe(options.name ?? "user fields", () => {
    let adapter: Required<Pick<Adapter, "createUser" | "getUser" | "getUserByEmail" | "getUserByAccount" | "updateUser" | "deleteUser" | "linkAccount" | "createSession" | "getSessionAndUser">> &
      Adapter
    beforeAll(async () => {
      await options.prepare?.(userFieldsTestModel)
      if (typeof options.adapter.withUserFields !== "function") throw new Error("The adapter has no withUserFields.")
      adapter = options.adapter.withUserFields(userFieldsTestModel) as typeof adapter
    })

    const base = (): AdapterUser => ({ id: crypto.randomUUID(), email: `fields-${unique()}@example.com`, emailVerified: null, name: "Ada", image: null })
    const full = () => ({
      ...base(),
      role: "admin",
      plan: "team",
      seats: 2 ** 40,
      beta: true,
      trialEnds: at(86_400_000),
      prefs: { theme: "dark", langs: ["fr", "de"], nested: { on: true, none: null } },
      bio: "x".repeat(3000),
    })
    const expectFields = (user: AdapterUser | null | undefined, expected: Record<string, unknown>) => {
      expect(user).toBeTruthy()
      const got = user as WithFields
      for (const [name, value] of Object.entries(expected)) {
        if (value instanceof Date) {
          expect(got[name], name).toBeInstanceOf(Date)
          expect((got[name] as Date).getTime(), name).toBe(value.getTime())
        } else {
          expect(got[name], name).toEqual(value)
        }
      }
      expect(typeof got.seats).toBe("number")
      expect(typeof got.beta).toBe("boolean")
    }

    it("creates a user with its fields and returns them typed, from createUser and every read", async () => {
      const { id, email, ...rest } = full()
      const { emailVerified: _v, name: _n, image: _i, ...fields } = rest
      const created = await adapter.createUser({ id, email, ...rest } as AdapterUser)
      expectFields(created, fields)
      expectFields(await adapter.getUser(id), fields)
      expectFields(await adapter.getUserByEmail(email), fields)
      const provider = "fields-idp"
      const account = `acc-${unique()}`
      await adapter.linkAccount({ userId: id, type: "oauth", provider, providerAccountId: account })
      expectFields(await adapter.getUserByAccount({ provider, providerAccountId: account }), fields)
      const sessionToken = `st-${unique()}`
      await adapter.createSession({ sessionToken, userId: id, expires: at(86_400_000) })
      const found = await adapter.getSessionAndUser(sessionToken)
      expectFields(found?.user, fields)
      expect(found?.user).toMatchObject({ id, email, name: "Ada" })
    })

    it("stores null in optional fields, and reads required ones as given", async () => {
      const user = { ...base(), role: "member", seats: 1, beta: false, plan: null, trialEnds: null, prefs: null, bio: null }
      const created = await adapter.createUser(user as AdapterUser)
      const expected = { role: "member", seats: 1, beta: false, plan: null, trialEnds: null, prefs: null, bio: null }
      expectFields(created, expected)
      expectFields(await adapter.getUser(user.id), expected)
    })

    it("updates only the fields an update gives, with the user's own fields or alone", async () => {
      const user = full()
      await adapter.createUser(user as AdapterUser)
      const updated = await adapter.updateUser({ id: user.id, role: "owner", beta: false } as Partial<AdapterUser> & { id: string })
      expectFields(updated, { role: "owner", beta: false, plan: "team", seats: 2 ** 40 })
      const renamed = await adapter.updateUser({ id: user.id, name: "Grace", plan: null } as Partial<AdapterUser> & { id: string })
      expect(renamed).toMatchObject({ name: "Grace" })
      expectFields(renamed, { role: "owner", plan: null, seats: 2 ** 40, beta: false })
      expectFields(await adapter.getUser(user.id), { role: "owner", plan: null, prefs: user.prefs, bio: user.bio })
    })

    it("ignores what is not declared, and never writes it", async () => {
      const user = { ...full(), undeclared: "nope", "role; DROP TABLE users": "x" }
      const created = (await adapter.createUser(user as AdapterUser)) as WithFields
      expect(created.undeclared).toBeUndefined()
      const updated = (await adapter.updateUser({ id: user.id, undeclared: "still no" } as Partial<AdapterUser> & { id: string })) as WithFields
      expect(updated.undeclared).toBeUndefined()
      expect(((await adapter.getUser(user.id)) as WithFields).undeclared).toBeUndefined()
    })

    it("returns the fields of the user it deletes, or with the user from a deletion", async () => {
      const user = full()
      await adapter.createUser(user as AdapterUser)
      const deleted = await adapter.deleteUser(user.id)
      if (deleted) expect(deleted).toMatchObject({ id: user.id })
      expect(await adapter.getUser(user.id)).toBeNull()
    })

    it("leaves the adapter it was made from as it was: that one reads and writes the spec's fields only", async () => {
      const plain = options.adapter
      const user = full()
      await adapter.createUser(user as AdapterUser)
      const read = (await plain.getUser!(user.id)) as WithFields
      expect(read).toMatchObject({ id: user.id, email: user.email })
      // The plain adapter's update keeps the stored fields.
      await plain.updateUser!({ id: user.id, name: "Plain" })
      expectFields(await adapter.getUser(user.id), { role: "admin", plan: "team" })
    })

    it.skipIf(typeof options.adapter.listUsers !== "function")("lists users with their fields, as getUser reads them", async () => {
      const user = full()
      await adapter.createUser(user as AdapterUser)
      const { users, next } = await adapter.listUsers!({ search: user.email, limit: 10 })
      expect(users).toEqual([await adapter.getUser(user.id)])
      expectFields(users[0], { role: "admin", plan: "team", seats: 2 ** 40, beta: true, trialEnds: user.trialEnds, prefs: user.prefs, bio: user.bio })
      expect(next).toBeNull()
    })

    it.skipIf(skip.has("transactions"))("keeps the fields inside a transaction", async () => {
      if (typeof adapter.transaction !== "function") throw new Error("The adapter has no transaction.")
      const user = full()
      await adapter.transaction(async (tx) => {
        const created = await tx.createUser!(user as AdapterUser)
        expectFields(created, { role: "admin", beta: true })
        expectFields(await tx.getUser!(user.id), { role: "admin", beta: true })
      })
      expectFields(await adapter.getUser(user.id), { role: "admin", seats: 2 ** 40 })
    })
  })
}
