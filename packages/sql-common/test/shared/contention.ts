/**
 * For the SQL adapters' stress tests: `uses` concurrent uses of one verification token, `rounds`
 * times, each with a fresh token. Returns how many uses got the token in each round (1 every time
 * when use-once is atomic).
 */
import type { Adapter } from "@sesame/core/adapters"

export async function winnersPerRound(adapter: Adapter, uses: number, rounds: number): Promise<number[]> {
  const winners: number[] = []
  for (let round = 0; round < rounds; round++) {
    // Whole seconds, so that the comparison below does not depend on a store's precision.
    const token = { identifier: `race-${round}@example.com`, token: crypto.randomUUID(), expires: new Date(Math.floor(Date.now() / 1000) * 1000 + 60_000) }
    await adapter.createVerificationToken!(token)
    const results = await Promise.all(Array.from({ length: uses }, () => adapter.useVerificationToken!(token)))
    const got = results.filter((r) => r !== null)
    for (const r of got) if (r.token !== token.token || r.expires.getTime() !== token.expires.getTime()) throw new Error("a use returned another token")
    winners.push(got.length)
  }
  return winners
}
