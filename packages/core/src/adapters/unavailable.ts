/**
 * Which failures mean "the storage could not be reached", as opposed to a query the storage
 * refused (a unique violation, a bad column) or a bug. Only the former is a `503` and a "try again":
 * everything else stays the error it is.
 *
 * The drivers say it in their own words, so they are recognised by what they set, never by
 * `instanceof` (an app's copy of a driver is not Sesame's): Node.js's socket errors, PostgreSQL's
 * SQLSTATE classes, MySQL's and MariaDB's codes, Prisma's, MongoDB's and the Redis clients' error
 * names, and an HTTP store's `fetch failed`. A driver or ORM that wraps the original (Drizzle,
 * Kysely, Prisma's adapters) keeps it as `cause`, which is followed, as are an `AggregateError`'s
 * errors (Node.js's connection attempts to several addresses).
 *
 * @module
 */
import { isStorageUnavailable, StorageUnavailable } from "../errors.js"

/** Node.js's socket errors when the server is gone, refuses, or cannot be reached. */
const socketCodes = new Set(["ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENETDOWN", "EAI_AGAIN"])

/**
 * PostgreSQL's SQLSTATEs for a server that is going away or not taking connections: class 08
 * (connection exception), `57P01` admin shutdown (a restart), `57P02` crash shutdown, `57P03`
 * cannot connect now (starting up, or in recovery), `53300` too many connections.
 */
const postgresStates = /^(?:08...|57P0[123]|53300)$/

/** MySQL's and MariaDB's: the connection lost or refused, too many connections, the server shutting down. */
const mysqlCodes = new Set([
  "PROTOCOL_CONNECTION_LOST",
  "PROTOCOL_SEQUENCE_TIMEOUT",
  "ER_CON_COUNT_ERROR",
  "ER_SERVER_SHUTDOWN",
  "ER_SOCKET_UNEXPECTED_CLOSE",
  "ER_CONNECTION_ALREADY_CLOSED",
  "ER_GET_CONNECTION_TIMEOUT",
  "ER_CMD_CONNECTION_CLOSED",
  "CR_SERVER_GONE_ERROR",
  "CR_SERVER_LOST",
])

/** Prisma's: server unreachable, timed out, closed the connection; no connection from the pool in time. */
const prismaCodes = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"])

/** Error names (classes) of clients that say nothing else: MongoDB's, ioredis's, node-redis's, Prisma's. */
const names = new Set([
  "MongoNetworkError",
  "MongoNetworkTimeoutError",
  "MongoServerSelectionError",
  "MongoTopologyClosedError",
  "MaxRetriesPerRequestError",
  "ClientClosedError",
  "ClientOfflineError",
  "SocketClosedUnexpectedlyError",
  "ConnectionTimeoutError",
  "PrismaClientInitializationError",
])

/**
 * Messages of drivers that throw a plain `Error`: node-postgres's for a connection that died, a
 * pool that could not connect in time, or a server that stopped answering within the clients'
 * `query_timeout`; ioredis's for a command on a closed connection, with the offline queue off, or
 * unanswered within `commandTimeout`; mysql2's for a command on a closed connection; and Redis's
 * own replies while it loads its data or fails over. (The timeouts are the only bound on a server
 * that keeps the connection open but stops answering; such a statement may have run.)
 */
const messages =
  /^(?:Connection terminated(?: unexpectedly| due to connection timeout)?|timeout exceeded when trying to connect|Query read timeout$|Client has encountered a connection error and is not queryable|Connection is closed\.|Command timed out$|Stream isn't writeable and enableOfflineQueue options is false|Can't add new command when connection is in closed state|(?:LOADING|MASTERDOWN|TRYAGAIN|CLUSTERDOWN)\b)/

/** Whether `error` itself (not its causes) says the storage could not be reached. */
function saysUnreachable(error: Error): boolean {
  const { code, name } = error as Error & { code?: unknown }
  if (typeof code === "string") {
    if (socketCodes.has(code) || mysqlCodes.has(code) || prismaCodes.has(code) || postgresStates.test(code)) return true
    // SQLite: another connection holds the lock for longer than the busy timeout.
    if (code === "SQLITE_BUSY") return true
  }
  if (names.has(name)) return true
  return messages.test(error.message)
}

/** `error` and its causes, breadth first, each once. */
function* chain(error: unknown): Generator<Error> {
  const seen = new Set<unknown>()
  const queue: unknown[] = [error]
  while (queue.length > 0 && seen.size < 16) {
    const current = queue.shift()
    if (!(current instanceof Error) || seen.has(current)) continue
    seen.add(current)
    yield current
    const cause = (current as { cause?: unknown }).cause
    if (cause instanceof Error) queue.push(cause)
    // Sesame's errors keep the original as `cause.err`.
    else if (cause && typeof cause === "object" && (cause as { err?: unknown }).err instanceof Error) queue.push((cause as { err: Error }).err)
    if (current instanceof AggregateError) queue.push(...current.errors)
  }
}

/**
 * The {@link StorageUnavailable} that `error` is or carries, or one made for it when it (or one of
 * its causes) is a failure to reach the storage; `undefined` for any other failure.
 */
export function storageUnavailable(error: unknown): StorageUnavailable | undefined {
  for (const current of chain(error)) {
    if (isStorageUnavailable(current)) return current
    if (saysUnreachable(current)) return new StorageUnavailable(`The storage could not be reached: ${current.message || current.name}`, { cause: error })
  }
  return undefined
}

/**
 * Whether the failure happened before the operation reached the server (no connection could be
 * made, or the driver would not send on a connection it knew had failed), so that it certainly did
 * not run: only then may a write be tried again as it is.
 */
export function neverSent(error: unknown): boolean {
  for (const current of chain(error)) {
    const { code, message } = current as Error & { code?: unknown }
    if (typeof code === "string" && connectCodes.has(code)) return true
    if (message.startsWith("timeout exceeded when trying to connect")) return true
    // node-postgres's answer, without sending anything, on a client whose connection failed before.
    if (message === "Client has encountered a connection error and is not queryable") return true
  }
  return false
}

/** Codes of a connection refused or not given: the server never saw the operation. */
const connectCodes = new Set(["ECONNREFUSED", "57P03", "53300", "P1001", "ER_CON_COUNT_ERROR"])
