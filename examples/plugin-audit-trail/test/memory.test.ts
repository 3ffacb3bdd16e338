import { MemoryAdapter } from "@sesame/core/adapters"
import { auditTrailTests } from "./suite.js"

auditTrailTests("the memory adapter", MemoryAdapter())
