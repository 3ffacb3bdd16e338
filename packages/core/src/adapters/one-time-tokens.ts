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
import { neverSent, storageUnavailable } from "./unavailable.js"
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
  const tokens = await Promise.all(secrets.map((secret) => oneTimeHash(purpose, value, secret)))
  for (let attempt = 0; attempt < 2; attempt++) {
    for (const token of tokens) {
      const stored = await adapter.useVerificationToken({ identifier, token })
      if (stored) {
        const putting = puttingBack.get(keyOf({ identifier, token }))
        if (putting) putting.used = true
        spent?.push(stored)
        return stored
      }
    }
    // Being put back by this process (the "try again" came before the storage had it again): wait for it, once.
    const pending = tokens.map((token) => puttingBack.get(keyOf({ identifier, token }))?.done).find(Boolean)
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

/** A record being put back: `used` once this process used a copy of it (one that was put back already). */
interface PutBack {
  used: boolean
  done: Promise<void>
}

/** The records this process is putting back. */
const puttingBack = new Map<string, PutBack>()
const keyOf = (record: { identifier: string; token: string }) => `${record.identifier}\u0000${record.token}`

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    // Never what keeps a process alive.
    ;(timer as { unref?: () => void }).unref?.()
  })
}

/**
 * Puts `records` back as they were (same hash, same expiry) as soon as the storage takes them, last
 * spent first, as an undo goes: a user's mark of unproven address (`account/unproven.ts`) is back
 * before the link that proves the address can be used again. Each is tried every 100 ms, for a
 * minute at most and never past its expiry, while the storage cannot be reached (a restart may
 * refuse, reset and terminate connections for seconds; giving up on the first reset lost the link
 * the visitor was told to try again). A write that may have run (its connection died after sending
 * it) is undone before it is made again, so that where nothing makes a row unique there is never a
 * second copy, and a second sign-in, of the link. A record this process uses while it is still
 * being put back was put back already: the work stops there. Not awaited: the request that spent
 * them answers its `503` at once.
 */
export function putBack(adapter: CheckedAdapter, records: readonly VerificationToken[]): void {
  let previous: Promise<void> = Promise.resolve()
  for (const record of [...records].reverse()) {
    const key = keyOf(record)
    const until = Math.min(new Date(record.expires).getTime(), Date.now() + putBackFor)
    const after = previous
    const entry: PutBack = { used: false, done: Promise.resolve() }
    entry.done = (async () => {
      await after
      let mayHaveRun = false
      while (Date.now() < until && !entry.used) {
        try {
          if (mayHaveRun) await adapter.useVerificationToken({ identifier: record.identifier, token: record.token })
          if (entry.used) return
          await adapter.createVerificationToken({ identifier: record.identifier, token: record.token, expires: new Date(record.expires) })
          return
        } catch (error) {
          // A refusal of the write itself (a unique key: it is there already) ends it; so does a bug.
          if (!storageUnavailable(error)) return
          if (!neverSent(error)) mayHaveRun = true
          await pause(putBackPause)
        }
      }
    })().finally(() => {
      if (puttingBack.get(key) === entry) puttingBack.delete(key)
    })
    puttingBack.set(key, entry)
    previous = entry.done
  }
}

/** Whether a used record had not expired. An adapter that serialises dates may hand back a string; anything unreadable counts as expired. */
export function stillValid(stored: VerificationToken, now = Date.now()): boolean {
  return new Date(stored.expires).getTime() > now
}
