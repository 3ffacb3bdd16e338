/**
 * Passwords: one hash a user under `password:<id>`, written whole (a new password replaces every
 * field of the old). Setting one for an unknown user fails, as a foreign key would; deleting the
 * user deletes it (see `users.ts`).
 *
 * @module
 */
export const passwords = String.raw`
OPS.getPassword = function(id) return record(passwordKey(id)) end

OPS.setPassword = function(password)
  requireUser(password.userId)
  local key = passwordKey(password.userId)
  del(key)
  put(key, password)
  return record(key)
end

OPS.deletePassword = function(id) del(passwordKey(id)) end
`
