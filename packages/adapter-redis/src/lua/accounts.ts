/**
 * Accounts: the key `account:<provider>:<providerAccountId>` is the unique index, and the user's
 * `user-accounts:<id>` set lists them for `listAccountsByUserId` and for cascading deletes.
 *
 * @module
 */
export const accounts = String.raw`
OPS.linkAccount = function(ref, account)
  requireUser(account.userId)
  local key = accountKey(ref)
  if exists(key) then fail('This provider account is already linked.') end
  put(key, account)
  sadd(userAccountsKey(account.userId), ref)
  return record(key)
end

OPS.unlinkAccount = function(ref)
  local key = accountKey(ref)
  local account = record(key)
  if not account then return nil end
  srem(userAccountsKey(redis.call('HGET', key, 'userId')), ref)
  del(key)
  return account
end

OPS.getAccount = function(ref) return record(accountKey(ref)) end

OPS.updateAccount = function(ref, fields)
  local key = accountKey(ref)
  if not exists(key) then return nil end
  put(key, fields)
  return record(key)
end

OPS.listAccountsByUserId = function(id)
  local list = {}
  for _, ref in ipairs(members(userAccountsKey(id))) do
    local account = record(accountKey(ref))
    if account then list[#list + 1] = account end
  end
  return list
end
`
