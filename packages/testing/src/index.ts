/**
 * `@sesame/testing`: what the browser tests of every package share, and a software WebAuthn
 * authenticator for server-level passkey tests.
 *
 * @module
 */
export { chromiumArgs, chromiumPath, launchBrowser } from "./browser.js"
export { defaultAxeTags, describeViolations, runAxe, type AxeReport, type Impact } from "./axe.js"
export { watchCsp, type CspWatcher } from "./csp.js"
export { focusStops, type FocusStop } from "./focus.js"
export { artifactsDir, saveScreenshot } from "./screenshots.js"
export { serve, type FetchHandler, type TestServer } from "./server.js"
export {
  SoftAuthenticator,
  type AuthenticationResponseJSON,
  type CeremonyOverrides,
  type CreationOptionsJSON,
  type RegistrationResponseJSON,
  type RequestOptionsJSON,
  type SoftAuthenticatorOptions,
  type SoftCredential,
} from "./webauthn.js"
export { freePort } from "./port.js"
export { startExample, type ExampleStart, type StartedExample } from "./npm-start.js"
export { checkUnavailable, connectionRefused, outage, type Outage, type UnavailableCheck } from "./outage.js"
export { tcpProxy, type TcpProxy } from "./tcp-proxy.js"
export { readmeExample } from "./readme.js"
export { roomInWindow } from "./rate-window.js"
