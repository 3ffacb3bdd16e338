import { MemoryAdapter } from "@sesame/core/adapters"
import { runUserFieldsTests } from "../src/index.js"

runUserFieldsTests({ name: "MemoryAdapter user fields", adapter: MemoryAdapter(), skip: ["transactions"] })
