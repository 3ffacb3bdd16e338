/**
 * Passkeys as a built-in feature: the ceremony's options for a `webauthn` provider, and the
 * script the sign-in page runs. The ceremony's answer is the provider's callback (a core row).
 *
 * @module
 */
import { route } from "../modules/route.js"
import { ExperimentalFeatureNotEnabled } from "../errors.js"
import { checkCookieMaxAge, type CookieDeclaration } from "../http/cookies.js"
import type { Feature } from "../modules/feature.js"
import { webAuthnOptions } from "./options.js"
import { passkeyMessages } from "./messages.js"
import { checkWebAuthnProviders, resolveWebAuthnProvider, type PasskeyProvider } from "./provider.js"
import { servePasskeyScript } from "./script.js"
import { passkeySignInPart } from "./section.js"
import type { PasskeyCookies, WebAuthnConfig } from "./types.js"

const webauthnProviders = (providers: readonly { type: string }[]) => providers.filter((p): p is WebAuthnConfig => p.type === "webauthn")

export const passkeysFeature: Feature = {
  id: "passkeys",
  messages: passkeyMessages,
  cookies: { webauthnChallenge: { name: "challenge", maxAge: checkCookieMaxAge } } satisfies Record<keyof PasskeyCookies, CookieDeclaration>,
  providerKinds: {
    webauthn: {
      resolve(provider: WebAuthnConfig, { name, experimental }) {
        if (!experimental.enableWebAuthn) {
          throw new ExperimentalFeatureNotEnabled(`The WebAuthn provider "${provider.id}" needs \`experimental: { enableWebAuthn: true }\` in the configuration.`)
        }
        return resolveWebAuthnProvider({ ...provider, name })
      },
      signIn: passkeySignInPart,
      needs: (provider: WebAuthnConfig) => [
        [
          `provider "${provider.id}"`,
          [
            "getUser",
            "getUserByEmail",
            "getUserByAccount",
            "createUser",
            "linkAccount",
            "getAccount",
            "getAuthenticator",
            "createAuthenticator",
            "listAuthenticatorsByUserId",
            "updateAuthenticatorCounter",
            // Each challenge is remembered until its one use (webauthn/challenge.ts).
            "createVerificationToken",
            "useVerificationToken",
          ],
        ],
      ],
    },
  },
  check: ({ providers }) => checkWebAuthnProviders(webauthnProviders(providers)),
  optional: ({ providers }) => (webauthnProviders(providers).length > 0 ? [["renaming and removing passkeys", ["updateAuthenticator", "deleteAuthenticator"]]] : []),
  routes: {
    // No CSRF token: it changes no session, and the challenge it sets is sealed and SameSite=Lax.
    "GET webauthn-options/:provider": route<PasskeyProvider>({ limit: "sign-in", provider: { kinds: ["webauthn"] }, run: webAuthnOptions }),
    "GET webauthn-script": route({ limit: "session", run: servePasskeyScript }),
  },
}
