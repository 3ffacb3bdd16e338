/**
 * Rows of declared models, as both scripts need them: the store's script (`models.ts`) writes
 * them, and the adapter's script deletes a user's (`users.ts`), so this part is in both. It reads
 * `P` (the key prefix), `NULL` and `touch` from the script around it: the adapter's `touch` saves
 * a key for its undo log (`runtime.ts`), the store's does nothing (its operations check everything
 * before their first write, so they never fail half-way).
 *
 * A model's schema (`store/schema.ts`) is kept at `model-schema:<name>`, so that a deletion can
 * reach the rows of models this script was not given: `model-referrers:<name>` lists the
 * `<model>:<column>` pairs that refer to the model `name` (or to `user`), and each such column has
 * an index set per value, which holds exactly the rows that refer to one row. See `store/keys.ts`
 * for the layout; the key parts are built here exactly as there.
 *
 * Sets are sorted sets scored by the row's expiry (0 for a model without one), and the sets of a
 * model with an expiry expire with their last row, so that what expired rows leave behind in them
 * goes by itself.
 *
 * @module
 */
export const modelRows = String.raw`
local function mPart(value) return (string.gsub(string.gsub(value, '%%', '%%25'), ':', '%%3A')) end

local mSchemas = {}
local function mSchema(name)
  if mSchemas[name] == nil then
    local json = redis.call('GET', P .. 'model-schema:' .. name)
    mSchemas[name] = json and cjson.decode(json) or false
  end
  return mSchemas[name]
end

local function mRowKey(s, pk) return P .. 'model:' .. s.table .. ':' .. pk end
local function mAllKey(s) return P .. 'model-all:' .. s.table end
local function mRow(key)
  local flat = redis.call('HGETALL', key)
  if #flat == 0 then return nil end
  local row = {}
  for i = 1, #flat, 2 do row[flat[i]] = flat[i + 1] end
  return row
end
-- The key of a group (a unique or an index) for the row's values; nil when one of them is null.
local function mGroupKey(s, g, row)
  local parts = {}
  for i, col in ipairs(g.cols) do
    if row[col] == nil then return nil end
    parts[i] = mPart(row[col])
  end
  local kind = g.unique and 'model-unique:' or 'model-index:'
  return P .. kind .. s.table .. ':' .. table.concat(g.cols, ',') .. ':' .. table.concat(parts, ':')
end
local function mExpiry(s, row) if s.expires then return row[s.expires] end return nil end
local function mLive(s, row, now)
  local expiry = mExpiry(s, row)
  return expiry == nil or tonumber(expiry) > now
end

local function mDel(key) touch(key); redis.call('DEL', key) end
local function mZrem(key, member) touch(key); redis.call('ZREM', key, member) end
-- Adds a row to a set; a set of expiring rows drops those that expired, and lives as long as its last.
local function mZadd(key, member, expiry, now)
  touch(key)
  if expiry then
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
    redis.call('ZADD', key, expiry, member)
    local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
    redis.call('PEXPIREAT', key, string.format('%d', tonumber(last[2])))
  else
    redis.call('ZADD', key, 0, member)
  end
end

local function mUngroup(s, g, pk, row)
  local key = mGroupKey(s, g, row)
  if not key then return end
  if not g.unique then mZrem(key, pk)
  elseif redis.call('GET', key) == pk then mDel(key) end
end
local function mGroup(s, g, pk, row, now)
  local key = mGroupKey(s, g, row)
  if not key then return end
  local expiry = mExpiry(s, row)
  if not g.unique then return mZadd(key, pk, expiry, now) end
  touch(key)
  redis.call('SET', key, pk)
  if expiry then redis.call('PEXPIREAT', key, expiry) end
end

-- Writes the fields of new that differ from old (nil: a new row), and the key's expiry.
local function mWriteRow(s, pk, old, new)
  local key = mRowKey(s, pk)
  touch(key)
  if old then
    for col in pairs(old) do
      if new[col] == nil then redis.call('HDEL', key, col) end
    end
  end
  for col, value in pairs(new) do
    if old == nil or old[col] ~= value then redis.call('HSET', key, col, value) end
  end
  local expiry = mExpiry(s, new)
  if expiry and (old == nil or old[s.expires] ~= expiry) then redis.call('PEXPIREAT', key, expiry) end
end

-- Drops a row and its index entries, and nothing else (an expired row; one deleted, below).
local function mRemove(s, pk, row)
  for _, g in ipairs(s.groups) do mUngroup(s, g, pk, row) end
  mZrem(mAllKey(s), pk)
  mDel(mRowKey(s, pk))
end

-- Sets a reference to null: the row leaves the groups that hold the column.
local function mClear(s, pk, row, col)
  for _, g in ipairs(s.groups) do
    for _, c in ipairs(g.cols) do
      if c == col then
        mUngroup(s, g, pk, row)
        break
      end
    end
  end
  local key = mRowKey(s, pk)
  touch(key)
  redis.call('HDEL', key, col)
end

local mDelete
-- Deletes (cascade) or clears (set null) the rows that refer to target's row value (target: a
-- model's name, or 'user'), and on through the rows that refer to those.
local function mDeleteReferrers(target, value)
  for _, member in ipairs(redis.call('SMEMBERS', P .. 'model-referrers:' .. target)) do
    local name, col = string.match(member, '^(.-):(.*)$')
    local s = mSchema(name)
    for _, ref in ipairs(s and s.refs or {}) do
      if ref.col == col and ref.model == target then
        local index = P .. 'model-index:' .. s.table .. ':' .. col .. ':' .. mPart(value)
        for _, pk in ipairs(redis.call('ZRANGE', index, 0, -1)) do
          -- Read now: an earlier deletion of this loop may have taken it.
          local row = mRow(mRowKey(s, pk))
          if row and row[col] == value then
            if ref.setNull then mClear(s, pk, row, col) else mDelete(s, pk, row) end
          end
        end
      end
    end
  end
end

-- Deletes a row, and on through the rows that refer to it.
mDelete = function(s, pk, row)
  mRemove(s, pk, row)
  if #s.pk == 1 then mDeleteReferrers(s.name, row[s.pk[1]]) end
end
`
