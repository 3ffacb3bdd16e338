// src/auth.ts
import Credentials from "@sesame/core/providers/credentials"
import { SvelteKitAuth } from "@sesame/sveltekit"

export const { handle, signIn, signOut } = SvelteKitAuth({
  // basePath: "/auth" is the default: the endpoints live under /auth.
  providers: [
    Credentials({
      credentials: {
        email: { label: "Email", type: "email", autocomplete: "username" },
        password: { label: "Password", type: "password", autocomplete: "current-password" },
      },
      async authorize({ email, password }) {
        // Check the password against your own store; return the user, or null to refuse.
        if (email === "demo@example.com" && password === "sesame-demo") return { id: "demo", name: "Demo User", email }
        return null
      },
    }),
    // An OpenID Connect provider whose issuer, client id and secret come from the environment:
    // AUTH_DEV_IDP_ISSUER, AUTH_DEV_IDP_ID, AUTH_DEV_IDP_SECRET (`npm start` starts one).
    { id: "dev-idp", name: "Sesame Dev IdP", type: "oidc" },
  ],
  // The app's own sign-in page (src/routes/signin): guards send visitors there.
  pages: { signIn: "/signin" },
})
