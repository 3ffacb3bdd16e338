/**
 * Verification tokens. Using one reads and deletes it in the same script, so of any number of
 * concurrent uses exactly one gets it. The key expires at the time the caller computed (the
 * token's `expires` plus the adapter's grace period).
 *
 * @module
 */
export const tokens = String.raw`
OPS.createVerificationToken = function(ref, token, expiresAt)
  local key = tokenKey(ref)
  del(key)
  put(key, token)
  local created = record(key)
  expireAt(key, expiresAt)
  return created
end

OPS.useVerificationToken = function(ref)
  local key = tokenKey(ref)
  local token = record(key)
  if token then del(key) end
  return token
end
`
