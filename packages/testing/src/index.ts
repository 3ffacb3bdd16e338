/**
 * `@sesame/testing`: what the browser tests of every package share.
 *
 * @module
 */
export { chromiumArgs, chromiumPath, launchBrowser } from "./browser.js"
export { defaultAxeTags, describeViolations, runAxe, type AxeReport, type Impact } from "./axe.js"
export { watchCsp, type CspWatcher } from "./csp.js"
export { artifactsDir, saveScreenshot } from "./screenshots.js"
export { serve, type FetchHandler, type TestServer } from "./server.js"
