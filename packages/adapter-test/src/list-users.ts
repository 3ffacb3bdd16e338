/**
 * The conformance tests of `listUsers` (user management, for admin tools), run by
 * `runAdapterTests` unless skipped (`skip: ["userListing"]`): paging by email then id, the
 * search as plain text whatever its case, the refusals of a bad `limit` or cursor, and users read
 * as `getUser` reads them.
 *
 * Each test makes users under a tag of its own and searches by it, so the suite runs against a
 * table that already holds rows.
 *
 * @module
 */
import type { Adapter, AdapterUser } from "@sesame/core/adapters"
import { describe, expect, it } from "vitest"
import { method } from "./method.js"

const unique = () => crypto.randomUUID().slice(0, 8)
const base64url = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")

/** Registers the tests of `listUsers` on `adapter`; `createUser` makes a user with the suite's fixture. */
export function listUsersTests(adapter: Adapter, createUser: (overrides?: Partial<AdapterUser>) => Promise<AdapterUser>): void {
  const list = (query: { search?: string; limit: number; cursor?: string }) => Promise.resolve().then(() => method(adapter, "listUsers")(query))

  /** Every page of a query, with `limit` users a page. */
  async function pages(search: string, limit: number) {
    const all: { users: AdapterUser[]; next: string | null }[] = []
    let cursor: string | undefined
    do {
      const page = await list({ search, limit, ...(cursor === undefined ? {} : { cursor }) })
      all.push(page)
      cursor = page.next ?? undefined
      if (all.length > 50) throw new Error("listUsers does not end.")
    } while (cursor !== undefined)
    return all
  }

  describe("listUsers", () => {
    it("pages through users by email, then id: each once, in order, next null at the end", async () => {
      const tag = unique()
      const n = 25
      const order = Array.from({ length: n }, (_, i) => i).sort(() => Math.random() - 0.5)
      const made: AdapterUser[] = []
      // Created out of order, one without a name: the order is the email's, not the insertion's.
      for (const i of order) {
        const nn = String(i).padStart(2, "0")
        made[i] = await createUser({ email: `list-${tag}-${nn}@example.com`, name: i === n - 1 ? null : `Ada ${tag.toUpperCase()}-Name-${nn}` })
      }
      const all = await pages(tag, 10)
      expect(all.map((p) => p.users.length)).toEqual([10, 10, 5])
      expect(all.map((p) => p.next === null)).toEqual([false, false, true])
      expect(all.flatMap((p) => p.users.map((u) => u.id))).toEqual(made.map((u) => u.id))
      for (const page of all.slice(0, -1)) expect(typeof page.next).toBe("string")
      // Exactly `limit` left: the last page says so (no empty page after it).
      const [first] = await pages(tag, 25)
      expect(first!.users).toHaveLength(25)
      expect(first!.next).toBeNull()
      // A cursor is a position: without the search, the list goes on from it.
      const after = await list({ limit: 1, cursor: all[0]!.next! })
      expect(after.users.map((u) => u.id)).toEqual([made[10]!.id])
      const one = await list({ limit: 1 })
      expect(one.users).toHaveLength(1)
      expect(one.next).toEqual(expect.any(String))
    })

    it("searches a part of the email or the name, whatever its case, trimmed", async () => {
      const tag = unique()
      const users: AdapterUser[] = []
      for (const nn of ["07", "13"]) users.push(await createUser({ email: `find-${tag}-${nn}@Example.com`, name: `Grace ${tag}-Name-${nn} Hopper` }))
      const nameless = await createUser({ email: `find-${tag}-99@example.com`, name: null })
      const ids = async (search: string) => (await list({ search, limit: 100 })).users.map((u) => u.id)
      expect(await ids(`FIND-${tag.toUpperCase()}-07@EXAMPLE`)).toEqual([users[0]!.id])
      expect(await ids(`${tag}-name-13 hop`)).toEqual([users[1]!.id])
      expect(await ids(`  ${tag.toUpperCase()}-NAME-13  `)).toEqual([users[1]!.id])
      expect(await ids(`find-${tag}`)).toEqual([users[0]!.id, users[1]!.id, nameless.id])
      expect(await list({ search: `nobody-${tag}`, limit: 10 })).toEqual({ users: [], next: null })
    })

    it("matches a search as text, never as a pattern: % _ \\ ! * ? [ ] match themselves", async () => {
      const tag = unique()
      const at = "@example.com"
      const real = await createUser({ email: `lit-${tag}-a%b_c\\d*e?f[g]h${at}`, name: null })
      // Each would match if one of the characters were a wildcard (LIKE's % _, an escape \ or !, a glob's * ? [g]).
      const decoys = [`aZZb_c\\d*e?f[g]h`, `a%bQc\\d*e?f[g]h`, `a%b_cd*e?f[g]h`, `a%b_c\\dXXe?f[g]h`, `a%b_c\\d*eQf[g]h`, `a%b_c\\d*e?fgh`]
      for (const decoy of decoys) await createUser({ email: `lit-${tag}-${decoy}${at}`, name: null })
      const bang = await createUser({ email: `lit-${tag}-x!%y${at}`, name: null })
      await createUser({ email: `lit-${tag}-x%y${at}`, name: null })
      const named = await createUser({ email: `lit-${tag}-named${at}`, name: `50%_off [sale]* \\o/ ${tag}` })
      await createUser({ email: `lit-${tag}-other${at}`, name: `50XYoff Xsale]* \\o/ ${tag}` })
      const ids = async (search: string) => (await list({ search, limit: 100 })).users.map((u) => u.id)
      expect(await ids(`${tag}-a%b_c\\d*e?f[g]h`)).toEqual([real.id])
      expect(await ids(`${tag}-x!%y`)).toEqual([bang.id])
      expect(await ids(`50%_OFF [SALE]* \\o/ ${tag}`)).toEqual([named.id])
      for (const search of ["%", "_", "\\", "*", "?", "["]) {
        const found = (await list({ search: `${tag}-${search}`, limit: 100 })).users
        expect(found, search).toEqual([])
      }
    })

    it("refuses a limit out of 1 to 100, and a search that is not text, as bad input", async () => {
      for (const limit of [0, -1, 101, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
        await expect(list({ limit }), String(limit)).rejects.toBeInstanceOf(TypeError)
      }
      await expect(list({ limit: 10, search: 42 as never })).rejects.toBeInstanceOf(TypeError)
      expect((await list({ limit: 100 })).users.length).toBeGreaterThan(0)
      expect((await list({ limit: 1, search: "" })).users).toHaveLength(1)
    })

    it("refuses a cursor it did not give as bad input, not as a storage failure", async () => {
      await createUser()
      const garbage = [
        "garbage!",
        "",
        "' OR 1=1 --",
        base64url("not json"),
        base64url('{"email":"a","id":"b"}'),
        base64url('["only one"]'),
        base64url("[1, 2]"),
        base64url('["a\\u0000b", "c"]'),
        "A".repeat(10_000),
      ]
      for (const cursor of garbage) {
        await expect(list({ limit: 5, cursor }), cursor.slice(0, 40)).rejects.toBeInstanceOf(TypeError)
      }
      // One of the right form but made up is a position like any other: the list goes on from it.
      const page = await list({ limit: 5, cursor: base64url(JSON.stringify([`zz-${unique()}@example.com`, "z"])) })
      expect(page.users.length).toBeLessThanOrEqual(5)
      expect(page.next === null || typeof page.next === "string").toBe(true)
    })

    it("returns each user with its fields as getUser does", async () => {
      const tag = unique()
      const user = await createUser({ email: `fields-${tag}-1@example.com`, name: "Zoë Ȳṧ 🙂", image: "https://example.com/z.png" })
      const bare = await createUser({ email: `fields-${tag}-2@example.com`, name: null, image: null, emailVerified: null })
      const { users } = await list({ search: `fields-${tag}`, limit: 10 })
      expect(users).toEqual([await method(adapter, "getUser")(user.id), await method(adapter, "getUser")(bare.id)])
      expect(users[0]!.emailVerified).toBeInstanceOf(Date)
      expect(users[1]).toMatchObject({ name: null, image: null, emailVerified: null })
    })
  })
}
