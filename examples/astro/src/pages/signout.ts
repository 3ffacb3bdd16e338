// src/pages/signout.ts
import { signOut } from "@sesame/astro"
import type { APIRoute } from "astro"

// The header's form posts here: the session ends, and the visitor goes home.
export const POST: APIRoute = (context) => signOut(context, { redirectTo: "/" })
