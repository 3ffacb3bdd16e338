/**
 * The keys that sign API tokens: the app's, tied to no user, so a user's deletion leaves them. A
 * key is the hash `signing-key:<id>` (the key is the unique index), and the set `signing-keys`
 * lists them, so that listing reads the keys it names rather than scanning the store.
 *
 * @module
 */
export const signingKeys = String.raw`
OPS.listSigningKeys = function() return listOwned(signingKeysKey(), signingKeyKey) end

OPS.createSigningKey = function(key)
  local k = signingKeyKey(key.id)
  if exists(k) then fail('A signing key with this id already exists.') end
  put(k, key)
  sadd(signingKeysKey(), key.id)
  return record(k)
end

OPS.deleteSigningKey = function(id)
  del(signingKeyKey(id))
  srem(signingKeysKey(), id)
end
`
