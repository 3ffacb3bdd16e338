/**
 * Types this package's functions share.
 *
 * @module
 */
import type { Session, User } from "@sesame/core"

/** A session with a user: what `requireSession` resolves to. */
export type AuthenticatedSession = Session & { user: User }
