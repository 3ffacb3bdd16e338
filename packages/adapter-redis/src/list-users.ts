/**
 * `listUsers`: a page of users by email, then id, found through the email index (`email:<email>`
 * keys, see `keys.ts`), the one key every user has besides their hash.
 *
 * Redis keeps no order of users, so each page `SCAN`s the database for the index's keys (a
 * pattern of the prefix, its glob characters escaped, then `email:*`: the search is never part of
 * it), sorts the addresses (code units), and reads the users from the cursor on through the script
 * (`usersByEmail`, `lua/users.ts`), a chunk at a time, keeping those the search matches
 * (`matchesSearch`: a part of the email or the name, whatever the case, compared as text) until
 * the page is full.
 *
 * The cost, per page: a `SCAN` of every key of the database (not only the prefix's: Redis filters
 * by pattern after it reads), in steps of 1,000 that never block the server for long; then
 * `limit + 1` users read without a search, and with one every user from the cursor on until the
 * page is full, or to the end. Fine for an admin's list of thousands or tens of thousands of users;
 * a directory of millions belongs in a database with an index. A user created or renamed while a
 * page is made may or may not be on it (`SCAN`'s guarantee); one deleted meanwhile is left out.
 *
 * @module
 */
import { checkUserListQuery, isAfter, matchesSearch, userListPage, type Adapter, type AdapterUser } from "@sesame/core/adapters"
import type { Redis } from "ioredis"
import type { Ready } from "./ready.js"
import type { FlatRecord, UserRecords } from "./records.js"
import type { RunBatch } from "./run.js"

/** Keys a `SCAN` step asks for: a hint to Redis, which may return more or fewer. */
const scanCount = 1000
/** Users read in one call of the script while a search looks for matches. */
const searchChunk = 200

/** `text` matched literally in a `SCAN` pattern: its glob characters escaped. */
const literal = (text: string) => text.replace(/[*?[\]\\]/g, "\\$&")

/**
 * `listUsers` on `client`. `fullPrefix`: the client's `keyPrefix` and the adapter's prefix, as the
 * script builds keys (ioredis adds its `keyPrefix` neither to a `SCAN` pattern nor to the keys it
 * returns); `run`: the script, after `ready`.
 */
export function userLister(client: Redis, fullPrefix: string, ready: Ready, run: RunBatch, users: UserRecords): NonNullable<Adapter["listUsers"]> {
  const indexPrefix = `${fullPrefix}email:`

  /** Every address in the email index, sorted. */
  async function addresses(): Promise<string[]> {
    const found = new Set<string>()
    let cursor = "0"
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", `${literal(indexPrefix)}*`, "COUNT", scanCount)
      for (const key of keys) found.add(key.slice(indexPrefix.length))
      cursor = next
    } while (cursor !== "0")
    return [...found].sort()
  }

  /** The users with these addresses, in their order (those gone since the scan left out). */
  async function read(emails: readonly string[]): Promise<AdapterUser[]> {
    if (emails.length === 0) return []
    const records = JSON.parse(await run("keep", [["usersByEmail", emails]], [])) as FlatRecord[] | null
    return (records ?? []).map(users.read)
  }

  return async (query) => {
    const { search, limit, after } = checkUserListQuery(query)
    await ready()
    const all = await addresses()
    // The cursor's own address may come again (another user with it since), so the check by id is `isAfter`'s.
    const from = after ? all.findIndex((email) => email >= after.email) : 0
    const rest = from === -1 ? [] : all.slice(from)
    const found: AdapterUser[] = []
    const chunk = search === "" ? limit + 1 : searchChunk
    for (let i = 0; i < rest.length && found.length <= limit; i += chunk) {
      for (const user of await read(rest.slice(i, i + chunk))) {
        if (isAfter(user, after) && matchesSearch(user, search)) found.push(user)
      }
    }
    return userListPage(found.slice(0, limit + 1), limit)
  }
}
