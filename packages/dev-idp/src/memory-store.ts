/**
 * oidc-provider's storage contract, in memory, one store per dev IdP instance.
 *
 * oidc-provider ships a quick-start adapter too, but it is shared by every provider in the process
 * and warns on each start; a store per instance keeps parallel IdPs in one test run apart.
 *
 * @module
 */
import type { Adapter, AdapterPayload } from "oidc-provider"

interface Entry {
  payload: AdapterPayload
  expiresAt: number | undefined
}

/** A factory for oidc-provider's `adapter` option: one table per model name, all in `tables`. */
export function memoryStore(): (model: string) => Adapter {
  const tables = new Map<string, Map<string, Entry>>()
  const table = (name: string) => {
    let found = tables.get(name)
    if (!found) {
      found = new Map()
      tables.set(name, found)
    }
    return found
  }
  // Grants own their tokens: revoking a grant removes every token issued under it.
  const grants = new Map<string, Set<[string, string]>>()

  return (model: string): Adapter => {
    const entries = table(model)
    const live = (id: string): AdapterPayload | undefined => {
      const entry = entries.get(id)
      if (!entry) return undefined
      if (entry.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
        entries.delete(id)
        return undefined
      }
      return entry.payload
    }
    const findBy = (key: "userCode" | "uid", value: string) => {
      for (const [id, entry] of entries) if (entry.payload[key] === value) return live(id)
      return undefined
    }
    return {
      async upsert(id, payload, expiresIn) {
        entries.set(id, { payload: structuredClone(payload), expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : undefined })
        if (payload.grantId) {
          const owned = grants.get(payload.grantId) ?? new Set()
          owned.add([model, id])
          grants.set(payload.grantId, owned)
        }
      },
      async find(id) {
        return live(id)
      },
      async findByUserCode(userCode) {
        return findBy("userCode", userCode)
      },
      async findByUid(uid) {
        return findBy("uid", uid)
      },
      async consume(id) {
        const payload = live(id)
        if (payload) payload.consumed = Math.floor(Date.now() / 1000)
      },
      async destroy(id) {
        entries.delete(id)
      },
      async revokeByGrantId(grantId) {
        for (const [name, id] of grants.get(grantId) ?? []) table(name).delete(id)
        grants.delete(grantId)
      },
    }
  }
}
