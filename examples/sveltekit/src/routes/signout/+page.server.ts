// src/routes/signout/+page.server.ts
import { signOut } from "../../auth"
import type { Actions } from "./$types"

// The header's form posts here, with `redirectTo`.
export const actions: Actions = { default: signOut }
