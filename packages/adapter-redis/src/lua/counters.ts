/**
 * Attempt counters, under `counter:<key>`. The key expires at the counter's `expires`
 * (`PEXPIREAT`), so an expired counter is simply gone, and the next increment (`HINCRBY` on a
 * missing key) starts again at 1. Incrementing counts and moves the expiry in one script call, so
 * concurrent increments from any number of clients each count. The record is read before the
 * expiry is set, so that an increment with a past `expires` (gone at once) still returns its count.
 *
 * @module
 */
export const counters = String.raw`
OPS.incrementCounter = function(key, expires)
  local k = counterKey(key)
  touch(k)
  redis.call('HINCRBY', k, 'count', 1)
  put(k, { key = key, expires = expires })
  local counter = record(k)
  expireAt(k, expires)
  return counter
end

OPS.getCounter = function(key) return record(counterKey(key)) end

OPS.deleteCounter = function(key) del(counterKey(key)) end
`
