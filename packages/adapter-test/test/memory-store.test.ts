import { MemoryAdapter } from "@sesame/core/adapters"
import { runStoreTests } from "../src/index.js"

runStoreTests({ name: "MemoryAdapter store", adapter: MemoryAdapter() })
