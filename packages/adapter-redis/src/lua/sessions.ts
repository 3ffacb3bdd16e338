/**
 * Sessions expire in Redis at their `expires` (`PEXPIREAT`, moved when the session is extended),
 * so an expired session is simply gone. The user's `user-sessions:<id>` set still names it until
 * it is pruned: listing skips and removes such names, and creating a session prunes the set, so
 * it never holds more than the live sessions plus those expired since the last sign-in.
 *
 * A session's record is read before its expiry is set, so that a session created or extended
 * with a past `expires` (gone at once) still returns what was written.
 *
 * @module
 */
export const sessions = String.raw`
local function pruneSessions(userId)
  local setKey = userSessionsKey(userId)
  for _, token in ipairs(members(setKey)) do
    if not exists(sessionKey(token)) then srem(setKey, token) end
  end
end

OPS.createSession = function(session)
  local token = session.sessionToken
  requireUser(session.userId)
  pruneSessions(session.userId)
  local created = insertOwned(sessionKey(token), session, userSessionsKey, token, 'A session with this token already exists.')
  expireAt(sessionKey(token), session.expires)
  return created
end

OPS.getSessionAndUser = function(token)
  local key = sessionKey(token)
  local session = record(key)
  if not session then return nil end
  local user = record(userKey(redis.call('HGET', key, 'userId')))
  if not user then return nil end
  return { session, user }
end

OPS.updateSession = function(token, fields)
  local key = sessionKey(token)
  if not exists(key) then return nil end
  put(key, fields)
  local updated = record(key)
  if type(fields.expires) == 'string' then expireAt(key, fields.expires) end
  return updated
end

OPS.deleteSession = function(token) return removeOwned(sessionKey(token), userSessionsKey, token) end

OPS.listSessionsByUserId = function(id)
  local setKey = userSessionsKey(id)
  local list = {}
  for _, token in ipairs(members(setKey)) do
    local session = record(sessionKey(token))
    if session then list[#list + 1] = session else srem(setKey, token) end
  end
  return list
end

OPS.deleteSessionsByUserId = function(id, except)
  local setKey = userSessionsKey(id)
  local count = 0
  for _, token in ipairs(members(setKey)) do
    if token ~= except then
      if exists(sessionKey(token)) then
        del(sessionKey(token))
        count = count + 1
      end
      srem(setKey, token)
    end
  end
  return count
end
`
