/**
 * The Lua that every operation runs in: one script call applies a batch of operations atomically
 * (Redis runs a script with nothing else in between), and the undo log makes it all-or-nothing.
 *
 * Arguments: `ARGV[1]` the key prefix; `ARGV[2]` `keep` (commit the writes) or `undo` (roll them
 * back after computing the results: a transaction's dry run); `ARGV[3]` the operations as JSON,
 * each `[name, arg…]`; `ARGV[4]` the results expected of the first operations, as JSON (a
 * transaction's replay: a different result means another client changed what it saw).
 *
 * Before a key is first written, `touch` saves it with `DUMP` and its remaining time to live;
 * when an operation fails, or in `undo` mode, every saved key is restored, newest first. A script
 * that fails half-way would otherwise keep its earlier writes (Redis does not roll scripts back).
 *
 * Results are encoded by `enc` as JSON with hash fields sorted, so that the same state always
 * gives the same string and a replay can compare them.
 *
 * The keys are built here from the prefix (see `keys.ts` for the layout); operations touch keys
 * named by data (a user's sessions, say), so they are not declared in `KEYS`, which rules out
 * Redis Cluster.
 *
 * @module
 */
export const head = String.raw`
local P = ARGV[1]
local keep = ARGV[2] == 'keep'
local ops = cjson.decode(ARGV[3])
local expected = cjson.decode(ARGV[4])
local NULL = cjson.null

local saved, order = {}, {}
local function touch(key)
  if saved[key] == nil then
    local dump = redis.call('DUMP', key)
    local ttl = -1
    if dump then ttl = redis.call('PTTL', key) end
    saved[key] = { dump = dump, ttl = ttl }
    order[#order + 1] = key
  end
end
local function undo()
  for i = #order, 1, -1 do
    local key = order[i]
    local s = saved[key]
    redis.call('DEL', key)
    if s.dump then
      local ttl = 0
      if s.ttl > 0 then ttl = s.ttl end
      redis.call('RESTORE', key, ttl, s.dump)
    end
  end
end

local function fail(message) error({ sesame = message }) end
local function exists(key) return redis.call('EXISTS', key) == 1 end
local function put(key, fields)
  touch(key)
  for field, value in pairs(fields) do
    if value == NULL then redis.call('HDEL', key, field) else redis.call('HSET', key, field, value) end
  end
end
local function del(key) touch(key); redis.call('DEL', key) end
local function set(key, value) touch(key); redis.call('SET', key, value) end
local function sadd(key, member) touch(key); redis.call('SADD', key, member) end
local function srem(key, member) touch(key); redis.call('SREM', key, member) end
local function expireAt(key, ms) touch(key); redis.call('PEXPIREAT', key, ms) end
local function members(key)
  local list = redis.call('SMEMBERS', key)
  table.sort(list)
  return list
end
local function record(key)
  local flat = redis.call('HGETALL', key)
  if #flat == 0 then return nil end
  local fields = {}
  for i = 1, #flat, 2 do fields[#fields + 1] = { flat[i], flat[i + 1] } end
  table.sort(fields, function(a, b) return a[1] < b[1] end)
  local out = {}
  for _, f in ipairs(fields) do
    out[#out + 1] = f[1]
    out[#out + 1] = f[2]
  end
  return out
end
local function enc(value)
  if value == nil or value == false then return 'null' end
  if type(value) == 'string' then return cjson.encode(value) end
  if type(value) == 'number' then return string.format('%d', value) end
  local parts = {}
  for i = 1, #value do parts[i] = enc(value[i]) end
  return '[' .. table.concat(parts, ',') .. ']'
end

local function userKey(id) return P .. 'user:' .. id end
local function emailKey(email) return P .. 'email:' .. email end
local function accountKey(ref) return P .. 'account:' .. ref end
local function userAccountsKey(id) return P .. 'user-accounts:' .. id end
local function sessionKey(token) return P .. 'session:' .. token end
local function userSessionsKey(id) return P .. 'user-sessions:' .. id end
local function tokenKey(ref) return P .. 'token:' .. ref end
local function authenticatorKey(id) return P .. 'authenticator:' .. id end
local function userAuthenticatorsKey(id) return P .. 'user-authenticators:' .. id end

local function requireUser(id)
  if not exists(userKey(id)) then fail('No user with id "' .. id .. '".') end
end

-- Accounts, sessions and passkeys belong to a user, who lists them in a set (ownerSet(userId)).
local function insertOwned(key, fields, ownerSet, member, taken)
  requireUser(fields.userId)
  if exists(key) then fail(taken) end
  put(key, fields)
  sadd(ownerSet(fields.userId), member)
  return record(key)
end
local function removeOwned(key, ownerSet, member)
  local value = record(key)
  if not value then return nil end
  srem(ownerSet(redis.call('HGET', key, 'userId')), member)
  del(key)
  return value
end
local function listOwned(setKey, keyOf)
  local list = {}
  for _, member in ipairs(members(setKey)) do
    local value = record(keyOf(member))
    if value then list[#list + 1] = value end
  end
  return list
end

local OPS = {}
`

export const tail = String.raw`
local results = {}
local ok, err = pcall(function()
  for i, op in ipairs(ops) do
    local run = OPS[op[1]]
    if run == nil then fail('Unknown operation "' .. tostring(op[1]) .. '".') end
    local result = enc(run(op[2], op[3], op[4]))
    if expected[i] ~= nil and expected[i] ~= result then error({ conflict = true }) end
    results[i] = result
  end
end)
if not ok then
  undo()
  if type(err) == 'table' and err.conflict then return redis.error_reply('SESAME_CONFLICT a replayed result differs') end
  if type(err) == 'table' and err.sesame then return redis.error_reply('SESAME ' .. err.sesame) end
  if type(err) == 'table' and err.err then return redis.error_reply(err.err) end
  return redis.error_reply(tostring(err))
end
if not keep then undo() end
return results[#results]
`
