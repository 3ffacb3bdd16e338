import { MemoryAdapter } from "@sesame/core/adapters"
import { runAdapterTests } from "@sesame/adapter-test"

const adapter = MemoryAdapter()
const { users, accounts, sessions, verificationTokens, authenticators } = adapter.tables

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
  },
})
