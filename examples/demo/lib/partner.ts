/**
 * The two apps that sign in with the demo's accounts through the demo's own authorization server
 * (`@sesame/oauth-provider`, registered in lib/store.ts), and what both sides know of them:
 *
 * - Partner notes, a web app with a server (confidential: it keeps a secret), signing in with the
 *   authorization code and PKCE, its callback on the demo's origin (`/dev/partner/callback`);
 * - Living-room TV, a device with no keyboard (public: no secret), signing in with the device flow.
 *
 * Both are played by the demo itself, on the page /dev/partner (app/dev/partner/), which talks to
 * the authorization server over HTTP as any other client does.
 */
import { publicOrigin } from "./api"

/** A fixed secret, so that the demo needs no setup; `DEMO_PARTNER_SECRET` replaces it. Not for production. */
const defaultPartnerSecret = "partner-notes-demo-secret-not-for-production-0123456789"

export const partnerNotes = {
  clientId: "partner-notes",
  name: "Partner notes",
  /** What Partner notes asks for: who you are, your address and your name. */
  scope: "openid email profile",
} as const

/** Partner notes' client secret: the authorization server's and the app's copy. */
export const partnerSecret = process.env.DEMO_PARTNER_SECRET || defaultPartnerSecret

export const livingRoomTv = {
  clientId: "living-room-tv",
  name: "Living-room TV",
  scope: "openid email offline_access",
} as const

export const partnerCallbackPath = "/dev/partner/callback"

/**
 * The app's origin for the registered redirect URI: from `AUTH_URL` (what the launcher sets), never
 * from a request. `http://localhost:3000` without it, `npm start`'s default (the authorization
 * server itself then answers only on a loopback host).
 */
export const partnerRedirectUri = () => `${publicOrigin() ?? "http://localhost:3000"}${partnerCallbackPath}`
