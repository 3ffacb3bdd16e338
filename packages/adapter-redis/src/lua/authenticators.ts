/**
 * WebAuthn credentials: the key `authenticator:<credentialID>` is the unique index, and the
 * user's `user-authenticators:<id>` set lists them. Updating or renaming an unknown credential
 * fails, as the contract asks.
 *
 * @module
 */
export const authenticators = String.raw`
OPS.createAuthenticator = function(authenticator)
  requireUser(authenticator.userId)
  local key = authenticatorKey(authenticator.credentialID)
  if exists(key) then fail('An authenticator with this credential id already exists.') end
  put(key, authenticator)
  sadd(userAuthenticatorsKey(authenticator.userId), authenticator.credentialID)
  return record(key)
end

OPS.getAuthenticator = function(id) return record(authenticatorKey(id)) end

OPS.listAuthenticatorsByUserId = function(id)
  local list = {}
  for _, credential in ipairs(members(userAuthenticatorsKey(id))) do
    local authenticator = record(authenticatorKey(credential))
    if authenticator then list[#list + 1] = authenticator end
  end
  return list
end

OPS.updateAuthenticator = function(id, fields)
  local key = authenticatorKey(id)
  if not exists(key) then fail('No authenticator with credential id "' .. id .. '".') end
  put(key, fields)
  return record(key)
end

OPS.deleteAuthenticator = function(id)
  local key = authenticatorKey(id)
  local authenticator = record(key)
  if not authenticator then return nil end
  srem(userAuthenticatorsKey(redis.call('HGET', key, 'userId')), id)
  del(key)
  return authenticator
end
`
