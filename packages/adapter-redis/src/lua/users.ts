/**
 * Users, with the email index kept in step: `email:<email>` names the user, and creating or
 * renaming to a taken address fails inside the script, so two clients racing for one address
 * cannot both win. Deleting a user deletes its accounts, sessions and authenticators, and the rows
 * of declared models that refer to it (their password, second factor and recovery codes among
 * them): deleted, or their reference cleared (`set null`), and on through the models that refer to
 * those. That part is `model-rows.ts`, which this script therefore holds too; its writes go through
 * `touch`, so that a transaction's dry run rolls them back with the rest.
 *
 * @module
 */
import { modelRows } from "./model-rows.js"

export const users = modelRows + String.raw`
OPS.createUser = function(user)
  local key = userKey(user.id)
  if exists(emailKey(user.email)) then fail('A user with this email already exists.') end
  if exists(key) then fail('A user with this id already exists.') end
  put(key, user)
  set(emailKey(user.email), user.id)
  return record(key)
end

OPS.getUser = function(id) return record(userKey(id)) end

OPS.getUserByEmail = function(email)
  local id = redis.call('GET', emailKey(email))
  if not id then return nil end
  return record(userKey(id))
end

-- listUsers' reads (see list-users.ts): the users with these addresses, in the given order, those
-- gone (or whose index key is not a user's: another prefix's key, say) left out.
OPS.usersByEmail = function(emails)
  local list = {}
  for _, email in ipairs(emails) do
    local id = redis.pcall('GET', emailKey(email))
    if type(id) == 'string' and redis.pcall('TYPE', userKey(id)).ok == 'hash' and redis.call('HGET', userKey(id), 'email') == email then
      list[#list + 1] = record(userKey(id))
    end
  end
  return list
end

OPS.getUserByAccount = function(ref)
  local id = redis.call('HGET', accountKey(ref), 'userId')
  if not id then return nil end
  return record(userKey(id))
end

OPS.updateUser = function(id, fields)
  local key = userKey(id)
  local current = redis.call('HGET', key, 'email')
  if not current then fail('No user with id "' .. id .. '".') end
  local email = fields.email
  if email == NULL then fail('A user must have an email address.') end
  if email ~= nil and email ~= current then
    if exists(emailKey(email)) then fail('A user with this email already exists.') end
    del(emailKey(current))
    set(emailKey(email), id)
  end
  put(key, fields)
  return record(key)
end

OPS.deleteUser = function(id)
  local key = userKey(id)
  local user = record(key)
  if not user then return nil end
  mDeleteReferrers('user', id)
  for _, ref in ipairs(members(userAccountsKey(id))) do del(accountKey(ref)) end
  for _, token in ipairs(members(userSessionsKey(id))) do del(sessionKey(token)) end
  for _, credential in ipairs(members(userAuthenticatorsKey(id))) do del(authenticatorKey(credential)) end
  del(userAccountsKey(id))
  del(userSessionsKey(id))
  del(userAuthenticatorsKey(id))
  del(emailKey(redis.call('HGET', key, 'email')))
  del(key)
  return user
end
`
