/**
 * The example app on SolidStart 1.x (vinxi), built and run on this machine's Node.js 20. Its origin
 * comes from the Host header (AUTH_TRUST_HOST).
 */
import { solidStart1 } from "./app.js"
import { describeApp } from "./scenario.js"

describeApp(solidStart1, { origin: "AUTH_TRUST_HOST" })
