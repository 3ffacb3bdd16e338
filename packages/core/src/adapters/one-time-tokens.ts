/**
 * One-time values remembered through the adapter's verification tokens: email sign-in tokens and
 * passkey challenges.
 *
 * The adapter only ever sees HMAC-SHA-256 of the value keyed with the secret (and a purpose, so a
 * value of one kind never matches a record of another): a copy of the table holds nothing usable,
 * and whoever can write to it cannot forge a record without the secret. A value is used with
 * `useVerificationToken`, which returns and deletes in one step, so of two concurrent uses exactly
 * one finds it. With secrets being rotated, the hash under each secret is tried in turn, so that a
 * value issued before the rotation still works.
 *
 * A value used by a request that then could not finish because the storage went away (a sign-in
 * link used, then the session could not be stored) is put back once the storage answers again
 * ({@link putBack}): the `503` the request got says "try again", and trying again must find it.
 *
 * @module
 */
import { backend } from "#crypto"
import { encoder, toHex } from "../crypto/encoding.js"
import type { VerificationToken } from "./types.js"
import type { CheckedAdapter } from "./wrap.js"

/** The `token` stored for `value`: HMAC-SHA-256 of `purpose:value` keyed with `secret`, hex. */
export async function oneTimeHash(purpose: string, value: string, secret: string): Promise<string> {
  return toHex(await backend.hmacSha256(encoder.encode(secret), `${purpose}:${value}`))
}

/**
 * Uses (and so deletes) the record of `value` under `identifier`, trying each secret; null when
 * none. The record used is added to `spent`, the request's (`RequestContext.spentOneTime`), so that
 * it can be put back if the request ends in a storage outage.
 */
export async function useOneTime(
  adapter: CheckedAdapter,
  identifier: string,
  purpose: string,
  value: string,
  secrets: readonly string[],
  spent?: VerificationToken[],
): Promise<VerificationToken | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    for (const secret of secrets) {
      const stored = await adapter.useVerificationToken({ identifier, token: await oneTimeHash(purpose, value, secret) })
      if (stored) {
        spent?.push(stored)
        return stored
      }
    }
    // Being put back by this process (the "try again" came before the storage had it again): wait for it, once.
    const pending = puttingBack.get(identifier)
    if (!pending) break
    await Promise.race([pending, pause(putBackWait)])
  }
  return null
}

/** How long records are put back for at most, and the pause between attempts. */
const putBackFor = 60_000
const putBackPause = 100
/** How long a lookup waits for a record being put back. */
const putBackWait = 1_000

/** The records this process is putting back, by identifier. */
const puttingBack = new Map<string, Promise<void>>()

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    // Never what keeps a process alive.
    ;(timer as { unref?: () => void }).unref?.()
  })
}

/**
 * Puts `records` back, as they were (same hash, same expiry), as soon as the storage takes them:
 * tried again every 100 ms for a minute at most, and never past a record's expiry. Not awaited: the
 * request that spent them answers its `503` at once.
 */
export function putBack(adapter: CheckedAdapter, records: readonly VerificationToken[]): void {
  for (const record of records) {
    const until = Math.min(new Date(record.expires).getTime(), Date.now() + putBackFor)
    const done: Promise<void> = (async () => {
      while (Date.now() < until) {
        try {
          await adapter.createVerificationToken({ identifier: record.identifier, token: record.token, expires: new Date(record.expires) })
          return
        } catch {
          await pause(putBackPause)
        }
      }
    })().finally(() => {
      if (puttingBack.get(record.identifier) === done) puttingBack.delete(record.identifier)
    })
    puttingBack.set(record.identifier, done)
  }
}

/** Whether a used record had not expired. An adapter that serialises dates may hand back a string; anything unreadable counts as expired. */
export function stillValid(stored: VerificationToken, now = Date.now()): boolean {
  return new Date(stored.expires).getTime() > now
}
