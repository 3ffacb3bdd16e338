/**
 * Which failures are a storage outage (`adapters/unavailable.ts`): the errors real drivers throw
 * when the server restarts, refuses or drops connections, however an ORM wraps them; and the
 * failures that are not (a unique violation, a syntax error, a bug), which must stay what they are.
 */
import { AdapterError, StorageUnavailable } from "@sesame/core/errors"
import { describe, expect, it } from "vitest"
import { neverSent, storageUnavailable } from "../../src/adapters/unavailable.js"

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code })
const named = (name: string, message = "") => Object.assign(new Error(message), { name })

describe("a storage outage is recognised from what drivers throw", () => {
  const outages: [string, Error][] = [
    ["node-postgres, server down", withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")],
    ["node-postgres, restart (admin shutdown)", withCode("terminating connection due to administrator command", "57P01")],
    ["node-postgres, starting up", withCode("the database system is starting up", "57P03")],
    ["node-postgres, connection exception", withCode("connection failure", "08006")],
    ["node-postgres, too many connections", withCode("sorry, too many clients already", "53300")],
    ["node-postgres, a pooled connection that died", new Error("Connection terminated unexpectedly")],
    ["node-postgres, pool connect timeout", new Error("timeout exceeded when trying to connect")],
    ["node-postgres, no answer within query_timeout", new Error("Query read timeout")],
    ["ioredis, no answer within commandTimeout", new Error("Command timed out")],
    ["mysql2, connection lost", withCode("Connection lost: The server closed the connection.", "PROTOCOL_CONNECTION_LOST")],
    ["mysql2, closed connection", new Error("Can't add new command when connection is in closed state")],
    ["mariadb, socket closed", withCode("socket has unexpectedly been closed", "ER_SOCKET_UNEXPECTED_CLOSE")],
    ["ioredis, closed connection", new Error("Connection is closed.")],
    ["ioredis, retries exhausted", named("MaxRetriesPerRequestError", "Reached the max retries per request limit (which is 1).")],
    ["node-redis, socket closed", named("SocketClosedUnexpectedlyError", "Socket closed unexpectedly")],
    ["Redis loading its data", new Error("LOADING Redis is loading the dataset in memory")],
    ["Prisma, unreachable", withCode("Can't reach database server at `127.0.0.1:5432`", "P1001")],
    ["MongoDB, no server", named("MongoServerSelectionError", "connect ECONNREFUSED")],
    ["fetch to an HTTP store", new TypeError("fetch failed", { cause: withCode("connect ECONNREFUSED 10.0.0.1:443", "ECONNREFUSED") })],
    ["Drizzle's wrapper", new Error("Failed query: select …", { cause: withCode("terminating connection due to administrator command", "57P01") })],
    ["Node's attempts at several addresses", new AggregateError([withCode("connect ECONNREFUSED ::1:5432", "ECONNREFUSED"), withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")])],
    ["Sesame's AdapterError around one", new AdapterError("Adapter method failed.", { cause: withCode("read ECONNRESET", "ECONNRESET") })],
  ]
  for (const [what, error] of outages) {
    it(what, () => {
      const found = storageUnavailable(error)
      expect(found).toBeInstanceOf(StorageUnavailable)
      expect(found!.status).toBe(503)
      expect(found!.headers).toEqual({ "Retry-After": String(found!.retryAfter) })
    })
  }

  it("an adapter's own StorageUnavailable is kept as it is", () => {
    const own = new StorageUnavailable("The replica is promoting.", { retryAfter: 10 })
    expect(storageUnavailable(new AdapterError("wrapped", { cause: own }))).toBe(own)
  })
})

describe("other failures are not an outage", () => {
  const others: [string, Error][] = [
    ["a unique violation", withCode('duplicate key value violates unique constraint "users_email_key"', "23505")],
    ["a missing table", withCode('relation "users" does not exist', "42P01")],
    ["MySQL duplicate entry", withCode("Duplicate entry 'a@example.com' for key 'email'", "ER_DUP_ENTRY")],
    ["a bug", new TypeError("Cannot read properties of undefined (reading 'id')")],
    ["a file that is missing", withCode("ENOENT: no such file or directory, open 'x'", "ENOENT")],
    ["a message that merely mentions a connection", new Error("The user's connection preference is invalid")],
  ]
  for (const [what, error] of others) {
    it(what, () => expect(storageUnavailable(error)).toBeUndefined())
  }

  it("a cycle of causes ends", () => {
    const a = new Error("a")
    const b = new Error("b", { cause: a })
    ;(a as { cause?: unknown }).cause = b
    expect(storageUnavailable(a)).toBeUndefined()
  })
})

describe("a write is tried again only when it never reached the server", () => {
  it("a refused connection never did", () => expect(neverSent(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe(true))
  it("a server starting up refused it", () => expect(neverSent(withCode("the database system is starting up", "57P03"))).toBe(true))
  it("a client node-postgres had seen fail never sent it", () =>
    expect(neverSent(new Error("Client has encountered a connection error and is not queryable"))).toBe(true))
  it("a connection that died may have run it", () => expect(neverSent(new Error("Connection terminated unexpectedly"))).toBe(false))
  it("a statement that timed out may have run", () => expect(neverSent(new Error("Query read timeout"))).toBe(false))
  it("a reset may have come after it ran", () => expect(neverSent(withCode("read ECONNRESET", "ECONNRESET"))).toBe(false))
})
