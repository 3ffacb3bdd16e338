// server/routes/signout.post.ts
import { signOut } from "@sesame/nuxt/server"

// The header's form posts here: the session ends, and the visitor goes home.
export default defineEventHandler((event) => signOut(event, { redirectTo: "/" }))
