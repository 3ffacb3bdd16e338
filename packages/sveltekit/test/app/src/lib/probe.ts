/**
 * What the test app records for the tests, which run it in their own process: the messages of
 * `logger.error` (and the codes of `logger.warn`), how many times the `session` callback ran (once
 * per session read), the errors SvelteKit's `handleError` got, the calls of the guards' `allow`, and the storage of the `outage`
 * configurations, which the tests take down and bring back.
 */
export interface Probe {
  errors: string[]
  sessionReads: number
  /** The codes of `logger.warn`, in the `outage` configurations. */
  warnings: string[]
  /** What SvelteKit's `handleError` got, but a storage outage. */
  unexpected: string[]
  /** The calls of the guards' `allow` (lib/permissions.ts): what was asked, for whom, where. */
  allowCalls: string[]
  storage?: { down(): void; up(): void; readonly refused: Map<string, number> }
}

/** The probe, shared through `globalThis` by the built app and the test that imports this file. */
export function probe(): Probe {
  const holder = globalThis as { sesameKitProbe?: Probe }
  return (holder.sesameKitProbe ??= { errors: [], sessionReads: 0, warnings: [], unexpected: [], allowCalls: [] })
}
