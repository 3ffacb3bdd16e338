// server/routes/auth/[...].ts
import { sesameHandler } from "@sesame/nuxt/server"

// Sesame's endpoints and built-in pages, under /auth: /auth/session, /auth/signin, /auth/signup,
// /auth/callback/<provider>…
export default sesameHandler(authConfig)
