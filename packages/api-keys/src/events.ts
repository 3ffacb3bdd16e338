/**
 * What the module reports once a change is stored: a security event (`api-key.created`,
 * `api-key.revoked`, `api-key.rotated`: for the app's `events.security` and an audit log) and the
 * app's `onChange`. Names, ids and scopes only: never a key, nor its hash.
 *
 * @module
 */
import type { ModuleRequest } from "@sesame/core"
import { EventError } from "@sesame/core/errors"
import type { ResolvedApiKeysOptions } from "./options.js"

/** One change: the key, its owner (a user or an organization), and who made the change. */
export interface ApiKeyEvent {
  type: "api-key.created" | "api-key.revoked" | "api-key.rotated"
  keyId: string
  name: string
  userId: string | null
  organizationId: string | null
  actorId: string
  /** `api-key.rotated`: the key that replaces `keyId`, and when `keyId` stops. */
  replacedBy?: string
  stopsAt?: Date
}

export async function report(options: ResolvedApiKeysOptions, request: ModuleRequest, event: ApiKeyEvent): Promise<void> {
  try {
    await request.securityEvent({
      type: event.type,
      userId: event.userId,
      actorId: event.actorId,
      details: {
        keyId: event.keyId,
        name: event.name,
        organizationId: event.organizationId,
        ...(event.replacedBy ? { replacedBy: event.replacedBy } : {}),
      },
    })
  } catch (error) {
    request.logger.error(new EventError(`api-keys: the security event of "${event.type}" was not sent; the change stands.`, { cause: error }))
  }
  if (!options.onChange) return
  try {
    await options.onChange(event)
  } catch (error) {
    request.logger.error(new EventError(`api-keys: onChange threw on "${event.type}"; the change stands.`, { cause: error }))
  }
}
