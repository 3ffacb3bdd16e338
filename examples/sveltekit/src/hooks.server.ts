// src/hooks.server.ts
import { authorize } from "@sesame/sveltekit"
import { sequence } from "@sveltejs/kit/hooks"
import { handle as auth } from "./auth"

// `auth` serves /auth/* and sets event.locals.auth(); `authorize` guards /admin before SvelteKit
// renders anything.
export const handle = sequence(auth, authorize({ protect: ["/admin"] }))
