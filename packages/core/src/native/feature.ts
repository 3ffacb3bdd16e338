/**
 * Native apps' sign-in as a built-in feature: the page that hands a signed-in browser's session to
 * an app, and the exchange of its one-time code (with PKCE) for a bearer session.
 *
 * @module
 */
import { route } from "../modules/route.js"
import type { Feature } from "../modules/feature.js"
import { confirmNativeAuthorize, exchangeNativeCode, showNativeAuthorize } from "./flow.js"
import { nativeAppsMessages } from "./messages.js"
import { resolveNativeApps, type ResolvedNativeApps } from "./settings.js"

declare module "../modules/feature.js" {
  interface FeatureSettingsMap {
    nativeApps: ResolvedNativeApps
  }
}

export const nativeAppsFeature: Feature<"nativeApps"> = {
  id: "native-apps",
  messages: nativeAppsMessages,
  settings: {
    key: "nativeApps",
    resolve: ({ config, adapter, session }) =>
      config.nativeApps === undefined ? undefined : resolveNativeApps(config.nativeApps, adapter, session.strategy === "database"),
  },
  routes: {
    "GET native/authorize": route({ run: showNativeAuthorize }),
    "POST native/authorize": route({ csrf: true, run: confirmNativeAuthorize }),
    // No CSRF token: the app posts it, with the code and its PKCE verifier, not a browser.
    "POST native/token": route({ limit: "sign-in", run: exchangeNativeCode }),
  },
}
