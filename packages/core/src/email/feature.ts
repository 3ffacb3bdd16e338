/**
 * Email sign-in as a built-in feature: the "check your email" page (with the one-time code's form).
 * The link's and the code's answers are the provider's callback (a core row).
 *
 * @module
 */
import { route } from "../modules/route.js"
import { providerEnvName } from "../config/env.js"
import { codeCookieMaxAge, type CookieDeclaration } from "../http/cookies.js"
import type { Feature } from "../modules/feature.js"
import { resolveEmailProvider } from "./resolve.js"
import { emailSignInPart } from "./section.js"
import { emailMessages } from "./messages.js"
import type { EmailCodeCookies, EmailConfig } from "./types.js"
import { showVerifyRequest } from "./verify-request.js"

export const emailFeature: Feature = {
  id: "email-sign-in",
  messages: emailMessages,
  cookies: { emailCode: { name: "email-code", maxAge: codeCookieMaxAge } } satisfies Record<keyof EmailCodeCookies, CookieDeclaration>,
  providerKinds: {
    email: {
      resolve: (provider: EmailConfig, { name, env, clientAddress, secrets }) =>
        resolveEmailProvider(provider, { name, apiKey: provider.apiKey ?? env[`AUTH_${providerEnvName(provider.id)}_KEY`], clientAddress, secrets }),
      signIn: emailSignInPart,
      needs: (provider: EmailConfig) => [[`provider "${provider.id}"`, ["createVerificationToken", "useVerificationToken", "getUserByEmail", "createUser", "updateUser"]]],
    },
  },
  routes: {
    "GET verify-request": route({ run: showVerifyRequest }),
  },
}
