import { sqlite } from "./dialects.js"
import { userFieldsSuite, writtenFields } from "./user-fields-suite.js"

// Plain integers and text: 0/1, milliseconds, JSON text.
const { beta, trialEnds, prefs } = writtenFields
userFieldsSuite(await sqlite(), { ...writtenFields, beta: Number(beta), trialEnds: trialEnds.getTime(), prefs: JSON.stringify(prefs) })
