import { MemoryAdapter } from "@sesame/core/adapters"
import { auditTests } from "./suite.js"

auditTests("the memory adapter", MemoryAdapter())
