/**
 * Password accounts as a built-in feature: the sign-up, forgotten-password, reset and confirmation
 * endpoints, all served by a `password` provider named in the path.
 *
 * @module
 */
import { route } from "../modules/route.js"
import type { FeatureNeed, Feature } from "../modules/feature.js"
import { forgotPassword, resetPasswordLink, showForgotPassword, showSignUp, signUp, verifyEmail } from "./endpoints.js"
import { bindPasswordProvider, resolvePasswordProvider } from "./provider.js"
import { passwordMessages } from "./messages.js"
import { sendResetLink } from "./reset.js"
import { passwordSignInPart } from "./section.js"
import type { PasswordConfig } from "./types.js"

const password = { kinds: ["password"] } as const

export const passwordFeature: Feature = {
  id: "password",
  messages: passwordMessages,
  providerKinds: {
    password: {
      resolve: (provider: PasswordConfig, { name, clientAddress, secrets }) => resolvePasswordProvider(provider, name, clientAddress, secrets),
      bind: bindPasswordProvider,
      signIn: passwordSignInPart,
      needs(provider: PasswordConfig, session) {
        const needs: FeatureNeed[] = [
          [
            `provider "${provider.id}"`,
            [
              "getUser",
              "getUserByEmail",
              "createUser",
              "updateUser",
              // Hashes are kept in the generic store (password/storage.ts).
              "store",
              // Confirmation and reset links are remembered until their one use (password/links.ts).
              "createVerificationToken",
              "useVerificationToken",
            ],
          ],
        ]
        // A new password ends the user's other sessions (password/store.ts).
        if (session.strategy === "database") needs.push([`provider "${provider.id}" with database sessions`, ["deleteSessionsByUserId"]])
        return needs
      },
    },
  },
  sendPasswordReset: sendResetLink,
  routes: {
    "GET signup": route({ run: showSignUp }),
    "POST signup/:provider": route({ limit: "email", provider: password, csrf: true, run: signUp }),
    "GET forgot-password": route({ run: showForgotPassword }),
    "POST forgot-password/:provider": route({ limit: "email", provider: password, csrf: true, run: forgotPassword }),
    "GET reset-password/:provider": route({ provider: password, run: resetPasswordLink }),
    "POST reset-password/:provider": route({ limit: "sign-in", provider: password, csrf: true, run: resetPasswordLink }),
    "GET verify-email/:provider": route({ provider: password, run: verifyEmail }),
    "POST verify-email/:provider": route({ limit: "sign-in", provider: password, csrf: true, run: verifyEmail }),
  },
}
