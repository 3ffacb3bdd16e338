// src/routes/account/+layout.server.ts
import { requireSession } from "@sesame/sveltekit"
import type { LayoutServerLoad } from "./$types"

// Every page under /account: a visitor without a session is sent to sign in, and back here.
export const load: LayoutServerLoad = async (event) => ({ user: (await requireSession(event)).user })
