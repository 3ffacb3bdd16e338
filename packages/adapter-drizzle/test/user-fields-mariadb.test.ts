import { mariaDb } from "./dialects.js"
import { userFieldsSuite, writtenFields } from "./user-fields-suite.js"

// The plan under the table's own property, on the field's column.
const { plan, ...rest } = writtenFields
userFieldsSuite(await mariaDb(), { ...rest, planName: plan })
