import { describe, expect, it, vi } from "vitest"
import { MemoryAdapter, type Adapter, type AdapterUser } from "@sesame/core/adapters"
import { AdapterError } from "../../src/errors.js"
import { checkUserListQuery, userListCursor, userListPage } from "../../src/adapters/list-users.js"
import { checkAdapter } from "../../src/adapters/wrap.js"

const logger = { error() {}, warn() {}, debug() {} }
const user = (email: string, id: string): AdapterUser => ({ id, email, name: null, image: null, emailVerified: null })

describe("listUsers through the checked adapter", () => {
  it("refuses a limit out of range with a TypeError before calling the adapter", async () => {
    const listUsers = vi.fn(async () => ({ users: [], next: null }))
    const checked = checkAdapter({ listUsers }, logger)
    for (const limit of [0, 101, 2.5, Number.NaN]) await expect(checked.listUsers({ limit })).rejects.toBeInstanceOf(TypeError)
    await expect(checked.listUsers({ limit: 5, search: 1 as never })).rejects.toBeInstanceOf(TypeError)
    await expect(checked.listUsers({ limit: 5, cursor: 1 as never })).rejects.toBeInstanceOf(TypeError)
    expect(listUsers).not.toHaveBeenCalled()
  })

  it("passes on the adapter's TypeError (a cursor it did not give) as it is, and makes anything else an AdapterError", async () => {
    const checked = checkAdapter(MemoryAdapter(), logger)
    const refused = await checked.listUsers({ limit: 5, cursor: "not-a-cursor!" }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(TypeError)
    expect(refused).not.toBeInstanceOf(AdapterError)
    const failing: Adapter = {
      listUsers: async () => {
        throw new Error("connection reset")
      },
    }
    await expect(checkAdapter(failing, logger).listUsers({ limit: 5 })).rejects.toBeInstanceOf(AdapterError)
  })

  it("turns numeric user ids into strings, as for every read", async () => {
    const checked = checkAdapter({ listUsers: async () => ({ users: [{ ...user("a@example.com", "x"), id: 7 as never }], next: null }) }, logger)
    const page = await checked.listUsers({ limit: 5 })
    expect(page.users[0]!.id).toBe("7")
    expect(checked.has("listUsers")).toBe(true)
    expect(checkAdapter({}, logger).has("listUsers")).toBe(false)
  })
})

describe("the query, cursor and page of listUsers", () => {
  it("trims the search, keeps its case and reads back the cursor's position", () => {
    const cursor = userListCursor(user("zoë+1@例え.jp", "id-1"))
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(checkUserListQuery({ search: "  Ada  ", limit: 1, cursor })).toEqual({ search: "Ada", limit: 1, after: { email: "zoë+1@例え.jp", id: "id-1" } })
    expect(checkUserListQuery({ limit: 100 })).toEqual({ search: "", limit: 100, after: null })
    expect(() => checkUserListQuery({ limit: 1, search: "x".repeat(257) })).toThrow(TypeError)
    expect(() => checkUserListQuery({ limit: 1, search: "a\u0000b" })).toThrow(TypeError)
    expect(() => checkUserListQuery(null)).toThrow(TypeError)
  })

  it("gives a next cursor only when there was one more row", () => {
    const rows = [user("a@x", "1"), user("b@x", "2"), user("c@x", "3")]
    expect(userListPage(rows, 3)).toEqual({ users: rows, next: null })
    const page = userListPage(rows, 2)
    expect(page.users).toEqual(rows.slice(0, 2))
    expect(checkUserListQuery({ limit: 2, cursor: page.next! }).after).toEqual({ email: "b@x", id: "2" })
  })
})
