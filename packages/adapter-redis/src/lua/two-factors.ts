/**
 * Second factors and recovery codes. A user's factor is the hash `two-factor:<id>`, written whole
 * (a factor switched to email loses its TOTP secret); their unused codes are the set
 * `recovery-codes:<id>` of hashes. Using a code is one `SREM`, which only one of any number of
 * concurrent uses sees return 1. Setting either for an unknown user fails, as a foreign key would;
 * deleting the factor takes the codes along, and deleting the user takes both (see `users.ts`).
 *
 * @module
 */
export const twoFactors = String.raw`
OPS.getTwoFactor = function(id) return record(twoFactorKey(id)) end

OPS.setTwoFactor = function(twoFactor)
  requireUser(twoFactor.userId)
  local key = twoFactorKey(twoFactor.userId)
  del(key)
  put(key, twoFactor)
  return record(key)
end

OPS.deleteTwoFactor = function(id)
  del(twoFactorKey(id))
  del(recoveryCodesKey(id))
end

OPS.setRecoveryCodes = function(id, hashes)
  requireUser(id)
  local key = recoveryCodesKey(id)
  del(key)
  for _, hash in ipairs(hashes) do sadd(key, hash) end
end

OPS.useRecoveryCode = function(id, hash)
  local key = recoveryCodesKey(id)
  touch(key)
  return redis.call('SREM', key, hash)
end

OPS.countRecoveryCodes = function(id) return redis.call('SCARD', recoveryCodesKey(id)) end
`
