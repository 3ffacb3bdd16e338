/**
 * The store's script: the writes of declared models' rows (`store/store.ts` reads them with plain
 * commands). One call is one operation, which Redis runs with nothing in between; each checks
 * everything (a live row at the key, unique values, references, rows changed since they were read)
 * before its first write, so a refused operation wrote nothing and an accepted one cannot fail
 * half-way. Hence no undo log here, unlike the adapter's script: saving a model's whole set of rows
 * before each write would cost as much as the set.
 *
 * Arguments: `ARGV[1]` the key prefix; `ARGV[2]` the operation; `ARGV[3]` the model's schema as
 * JSON (stored at `model-schema:<name>` when it differs, with the model's references in
 * `model-referrers:<target>`); `ARGV[4]` the app's clock in milliseconds, which decides what has
 * expired, as in the reads; `ARGV[5]` the operation's arguments as JSON.
 *
 * Rows are hashes of column → encoded value (`store/encode.ts`); the script compares and copies
 * those strings and never decodes them, but for the expiry (a number of milliseconds).
 *
 * Replies: `create` `ok` (its `users`, when given, are ids of users taken as existing for its references); `increment` the row after, flat (a live row gets `set` and its field
 * moved by `by`; a missing or expired one is replaced by `create`, which holds both); `update` and
 * `delete` a count, or the list of rows that changed since the caller read them (nothing was
 * written: it reads them again and retries); `prune` a count; `adopt` (a record of the layout
 * before the store, moved in by `migrate.ts`) `moved`, `dropped` or `changed`; any of the others
 * `conflict` (a duplicate key or unique value: nothing written), or an error `SESAME <message>` (a
 * reference to a row that does not exist).
 *
 * @module
 */
import { createHash } from "node:crypto"
import { modelRows } from "./model-rows.js"

const head = String.raw`
local P = ARGV[1]
local NULL = cjson.null
local function touch() end
`

const operations = String.raw`
local now = tonumber(ARGV[4])
local args = cjson.decode(ARGV[5])

-- Users that an adapter transaction has created but not yet committed (args.users, on a create
-- of the transaction's store: ../store/transaction.ts): they count as existing for this call's
-- references, and for nothing else.
local knownUsers = {}
for _, id in ipairs(args.users or {}) do knownUsers[id] = true end

local s = cjson.decode(ARGV[3])
local schemaKey = P .. 'model-schema:' .. s.name
if redis.call('GET', schemaKey) ~= ARGV[3] then
  redis.call('SET', schemaKey, ARGV[3])
  for _, ref in ipairs(s.refs) do redis.call('SADD', P .. 'model-referrers:' .. ref.model, s.name .. ':' .. ref.col) end
end
mSchemas[s.name] = s

local function flat(row)
  local out = {}
  for col, value in pairs(row) do
    out[#out + 1] = col
    out[#out + 1] = value
  end
  return out
end

-- A copy of row with set's values (column -> value, NULL: cleared).
local function with(row, set)
  local out = {}
  for col, value in pairs(row) do out[col] = value end
  for col, value in pairs(set) do
    if value == NULL then out[col] = nil else out[col] = value end
  end
  return out
end

-- Whether the row is still the one the caller read (seen: column -> value).
local function same(row, seen)
  if not row then return false end
  local n = 0
  for col, value in pairs(row) do
    if seen[col] ~= value then return false end
    n = n + 1
  end
  for _ in pairs(seen) do n = n - 1 end
  return n == 0
end

-- An error reply when new refers (in a column that old did not already hold) to a row that does not exist.
local function missingReference(old, new)
  for _, ref in ipairs(s.refs) do
    local value = new[ref.col]
    if value ~= nil and (old == nil or old[ref.col] ~= value) and not (ref.model == 'user' and knownUsers[value]) then
      local key = false
      if ref.model == 'user' then key = P .. 'user:' .. value
      elseif mSchema(ref.model) then key = mRowKey(mSchema(ref.model), mPart(value)) end
      if not key or redis.call('EXISTS', key) == 0 then
        return redis.error_reply('SESAME Model "' .. s.name .. '": "' .. ref.field .. '" refers to a ' .. ref.model .. ' that does not exist.')
      end
    end
  end
  return nil
end

-- The live row that holds group g's key, other than the row pk; nil when the claim is free.
local function holder(g, key, pk)
  local other = redis.call('GET', key)
  if not other or other == pk then return nil end
  local row = mRow(mRowKey(s, other))
  if row and mGroupKey(s, g, row) == key then return other, row end
  return nil
end

-- 'conflict', an error reply, or nil when row may be stored at pk.
local function insertable(pk, row)
  local old = mRow(mRowKey(s, pk))
  if old and mLive(s, old, now) then return 'conflict' end
  for _, g in ipairs(s.groups) do
    local key = g.unique and mGroupKey(s, g, row)
    if key then
      local other, otherRow = holder(g, key, pk)
      if other and mLive(s, otherRow, now) then return 'conflict' end
    end
  end
  return missingReference(nil, row)
end

-- Stores a row that insertable allowed, first dropping the expired rows it replaces.
local function insert(pk, row)
  local old = mRow(mRowKey(s, pk))
  if old then mRemove(s, pk, old) end
  for _, g in ipairs(s.groups) do
    local key = g.unique and mGroupKey(s, g, row)
    if key then
      local other, otherRow = holder(g, key, pk)
      if other then mRemove(s, other, otherRow) end
    end
  end
  mWriteRow(s, pk, nil, row)
  for _, g in ipairs(s.groups) do mGroup(s, g, pk, row, now) end
  mZadd(mAllKey(s), pk, mExpiry(s, row), now)
end

-- Rewrites live rows (plan: {pk, old, new} each) after checking unique values and references
-- across all of them; 'conflict' or an error reply, and nothing written, when one fails.
local function change(plan)
  local inPlan, taken = {}, {}
  for _, item in ipairs(plan) do inPlan[item.pk] = true end
  for _, item in ipairs(plan) do
    for _, g in ipairs(s.groups) do
      local key = g.unique and mGroupKey(s, g, item.new)
      if key then
        if taken[key] then return 'conflict' end
        taken[key] = true
        -- A row of the plan that holds the value either lets it go or claims it too (taken).
        local other, otherRow = holder(g, key, item.pk)
        if other and not inPlan[other] and mLive(s, otherRow, now) then return 'conflict' end
      end
    end
    local missing = missingReference(item.old, item.new)
    if missing then return missing end
  end
  -- A group whose key is unchanged is left alone, unless the expiry (every entry's score) moved.
  local function moved(g, item)
    return item.expiryMoved or mGroupKey(s, g, item.old) ~= mGroupKey(s, g, item.new)
  end
  for _, item in ipairs(plan) do
    item.expiryMoved = mExpiry(s, item.old) ~= mExpiry(s, item.new)
    for _, g in ipairs(s.groups) do
      if moved(g, item) then mUngroup(s, g, item.pk, item.old) end
    end
  end
  for _, item in ipairs(plan) do
    mWriteRow(s, item.pk, item.old, item.new)
    for _, g in ipairs(s.groups) do
      if moved(g, item) then mGroup(s, g, item.pk, item.new, now) end
    end
    if item.expiryMoved then mZadd(mAllKey(s), item.pk, mExpiry(s, item.new), now) end
  end
  return nil
end

-- The rows (args.rows: {pk, row as read} each) that changed since the caller read them.
local function changedRows()
  local changed = {}
  for _, item in ipairs(args.rows) do
    if not same(mRow(mRowKey(s, item[1])), item[2]) then changed[#changed + 1] = item[1] end
  end
  return changed
end

local OPS = {}

OPS.create = function()
  local refused = insertable(args.pk, args.row)
  if refused then return refused end
  insert(args.pk, args.row)
  return 'ok'
end

OPS.increment = function()
  local row = mRow(mRowKey(s, args.pk))
  if row and mLive(s, row, now) then
    local new = with(row, args.set)
    new[args.col] = string.format('%d', (tonumber(row[args.col]) or 0) + args.by)
    local refused = change({ { pk = args.pk, old = row, new = new } })
    if refused then return refused end
    return flat(new)
  end
  local refused = insertable(args.pk, args.create)
  if refused then return refused end
  insert(args.pk, args.create)
  return flat(args.create)
end

OPS.update = function()
  local changed = changedRows()
  if #changed > 0 then return changed end
  local plan = {}
  for _, item in ipairs(args.rows) do
    local row = mRow(mRowKey(s, item[1]))
    -- Expired since it was read: no longer there for an update.
    if mLive(s, row, now) then plan[#plan + 1] = { pk = item[1], old = row, new = with(row, args.set) } end
  end
  local refused = change(plan)
  if refused then return refused end
  return #plan
end

OPS.delete = function()
  local changed = changedRows()
  if #changed > 0 then return changed end
  local count = 0
  for _, item in ipairs(args.rows) do
    -- Gone already when an earlier row's deletion cascaded to it.
    local row = mRow(mRowKey(s, item[1]))
    if row then
      mDelete(s, item[1], row)
      count = count + 1
    end
  end
  return count
end

-- Index entries (args.entries: {set key after the prefix, pk} each) that a read found stale: the
-- row is gone, or expired (then it goes too), or no longer holds the set's value.
OPS.prune = function()
  local count = 0
  for _, entry in ipairs(args.entries) do
    local key, pk = P .. entry[1], entry[2]
    local row = mRow(mRowKey(s, pk))
    if row and not mLive(s, row, now) then
      mRemove(s, pk, row)
      count = count + 1
    else
      local holds = row ~= nil and key == mAllKey(s)
      for _, g in ipairs(s.groups) do
        if row and not g.unique and mGroupKey(s, g, row) == key then holds = true end
      end
      if not holds then count = count + redis.call('ZREM', key, pk) end
    end
  end
  return count
end

-- Moves in a record of the layout before the store (migrate.ts): args.from, its key after the
-- prefix, is a hash that must still hold args.seen, or a set that must still hold args.member
-- (else 'changed', and nothing written). In one call the record leaves its key (and args.unlist,
-- {set, member}, the set that listed it), and becomes the row args.row at args.pk: 'moved'; or,
-- when a live row already has that key or a unique value (written since: it wins), the row refers
-- to one that is gone, or it has expired, it is only removed: 'dropped'.
OPS.adopt = function()
  local from = P .. args.from
  if args.member then
    if redis.call('SISMEMBER', from, args.member) == 0 then return 'changed' end
  elseif not same(mRow(from), args.seen) then return 'changed' end
  local refused = insertable(args.pk, args.row)
  if args.member then redis.call('SREM', from, args.member) else redis.call('DEL', from) end
  if args.unlist then redis.call('SREM', P .. args.unlist[1], args.unlist[2]) end
  if refused or not mLive(s, args.row, now) then return 'dropped' end
  insert(args.pk, args.row)
  return 'moved'
end

return OPS[ARGV[2]]()
`

/** The store's script, and its SHA-1 for `EVALSHA`. */
export const modelScript = [head, modelRows, operations].join("\n")

export const modelScriptSha = createHash("sha1").update(modelScript).digest("hex")
