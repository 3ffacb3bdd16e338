/**
 * What the test app records for the tests, which run it in their own process: the messages of
 * `logger.error`, and how many times the `session` callback ran (once per session read).
 */
export interface Probe {
  errors: string[]
  sessionReads: number
}

/** The probe, shared through `globalThis` by the built app and the test that imports this file. */
export function probe(): Probe {
  const holder = globalThis as { sesameKitProbe?: Probe }
  return (holder.sesameKitProbe ??= { errors: [], sessionReads: 0 })
}
