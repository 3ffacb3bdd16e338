import { MemoryAdapter } from "@sesame/core/adapters"
import { runAdapterTests } from "@sesame/adapter-test"

const adapter = MemoryAdapter()
const { users, accounts, sessions, verificationTokens, authenticators, passwords, counters, twoFactors, recoveryCodes, signingKeys } = adapter.tables

runAdapterTests({
  name: "MemoryAdapter",
  adapter,
  // The memory adapter has no transactions: a single process with no I/O between writes.
  skip: ["transactions"],
  db: {
    user: async (id) => users.get(id) ?? null,
    account: async ({ provider, providerAccountId }) => accounts.get(`${provider}\u0000${providerAccountId}`) ?? null,
    session: async (token) => sessions.get(token) ?? null,
    verificationToken: async ({ identifier, token }) => verificationTokens.get(`${identifier}\u0000${token}`) ?? null,
    authenticator: async (id) => authenticators.get(id) ?? null,
    password: async (userId) => passwords.get(userId) ?? null,
    counter: async (key) => counters.get(key) ?? null,
    twoFactor: async (userId) => twoFactors.get(userId) ?? null,
    recoveryCodes: async (userId) => [...(recoveryCodes.get(userId) ?? [])],
    signingKey: async (id) => signingKeys.get(id) ?? null,
  },
})
