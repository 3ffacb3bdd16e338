/**
 * Sign in with Figma (OAuth 2).
 *
 * @remarks
 * - The profile scope is `current_user:read` (Figma's granular scopes; the old `files:read` is
 *   deprecated).
 * - The API host is `api.figma.com`; the login page stays on `www.figma.com`.
 *
 * @example
 * ```ts
 * import Figma from "@sesame/core/providers/figma"
 * // AUTH_FIGMA_ID and AUTH_FIGMA_SECRET
 * const providers = [Figma()]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import { brandStyle } from "./lib/logo.js"
import { withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /v1/me`. */
export interface FigmaProfile {
  id: string
  email: string
  handle: string
  img_url?: string
  [key: string]: unknown
}

/** The Figma provider. */
export default function Figma(options?: OAuthUserConfig<FigmaProfile>): OAuth2Config<FigmaProfile> {
  return withOptions<OAuth2Config<FigmaProfile>, FigmaProfile>(
    {
      id: "figma",
      name: "Figma",
      type: "oauth",
      authorization: { url: "https://www.figma.com/oauth", params: { scope: "current_user:read" } },
      token: "https://api.figma.com/v1/oauth/token",
      userinfo: "https://api.figma.com/v1/me",
      checks: ["pkce", "state"],
      profile: (p) => ({ id: p.id, name: p.handle, email: p.email, image: p.img_url ?? null }),
      style: brandStyle("F", "#f24e1e"),
    },
    options,
  )
}
