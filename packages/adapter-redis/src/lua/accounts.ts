/**
 * Accounts: the key `account:<provider>:<providerAccountId>` is the unique index, and the user's
 * `user-accounts:<id>` set lists them for `listAccountsByUserId` and for cascading deletes.
 *
 * @module
 */
export const accounts = String.raw`
OPS.linkAccount = function(ref, account)
  return insertOwned(accountKey(ref), account, userAccountsKey, ref, 'This provider account is already linked.')
end

OPS.unlinkAccount = function(ref) return removeOwned(accountKey(ref), userAccountsKey, ref) end

OPS.getAccount = function(ref) return record(accountKey(ref)) end

OPS.updateAccount = function(ref, fields)
  local key = accountKey(ref)
  if not exists(key) then return nil end
  put(key, fields)
  return record(key)
end

OPS.listAccountsByUserId = function(id) return listOwned(userAccountsKey(id), accountKey) end
`
