import type { Actions } from "@sveltejs/kit"
import { signIn } from "../../auth.js"

// `signIn` as it is: the form names the provider (`providerId`) and carries its fields and `redirectTo`.
export const actions: Actions = { default: signIn }
