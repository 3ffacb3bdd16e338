/**
 * WebAuthn credentials: the key `authenticator:<credentialID>` is the unique index, and the
 * user's `user-authenticators:<id>` set lists them. Updating or renaming an unknown credential
 * fails, as the contract asks.
 *
 * @module
 */
export const authenticators = String.raw`
OPS.createAuthenticator = function(authenticator)
  local id = authenticator.credentialID
  return insertOwned(authenticatorKey(id), authenticator, userAuthenticatorsKey, id, 'An authenticator with this credential id already exists.')
end

OPS.getAuthenticator = function(id) return record(authenticatorKey(id)) end

OPS.listAuthenticatorsByUserId = function(id) return listOwned(userAuthenticatorsKey(id), authenticatorKey) end

OPS.updateAuthenticator = function(id, fields)
  local key = authenticatorKey(id)
  if not exists(key) then fail('No authenticator with credential id "' .. id .. '".') end
  put(key, fields)
  return record(key)
end

OPS.deleteAuthenticator = function(id) return removeOwned(authenticatorKey(id), userAuthenticatorsKey, id) end
`
