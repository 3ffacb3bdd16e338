/**
 * The session of the request being rendered, or the `StorageUnavailable` that `auth()` throws while
 * the database cannot be reached: the pages and the layout show "try again" (or leave out what
 * depends on the session) rather than an error page, and never take it for "signed out".
 */
import { isStorageUnavailable, type Session, type StorageUnavailable } from "@sesame/next"
import { auth } from "../auth"

export async function sessionOrOutage(): Promise<Session | null | StorageUnavailable> {
  try {
    return await auth()
  } catch (error) {
    if (isStorageUnavailable(error)) return error
    throw error
  }
}
