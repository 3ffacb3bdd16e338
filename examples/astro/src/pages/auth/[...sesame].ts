// src/pages/auth/[...sesame].ts
import { sesame } from "@sesame/astro"
import { authConfig } from "../../auth"

// Sesame's endpoints and built-in pages, under /auth: /auth/session, /auth/signin, /auth/signup,
// /auth/callback/<provider>…
export const prerender = false
export const { GET, POST } = sesame(authConfig)
