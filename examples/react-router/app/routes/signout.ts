// app/routes/signout.ts: the header's sign-out form posts here.
import { signOut } from "@sesame/react-router"
import type { Route } from "./+types/signout"

// The session ends (its cookie is cleared), and the visitor goes home.
export const action = (args: Route.ActionArgs) => signOut(args, { redirectTo: "/" })
