// app/routes/auth.ts, a resource route at "auth/*" (app/routes.ts)
import { sesame } from "@sesame/react-router"
import { authConfig } from "../auth.server"

// Sesame's endpoints and built-in pages, under /auth: /auth/session, /auth/signin, /auth/signup,
// /auth/callback/<provider>… GET and HEAD go to the loader, POST to the action.
//
// Two exports rather than `export const { loader, action } = sesame(authConfig)`: React Router
// takes `loader` and `action` out of the browser's bundle, and refuses to build a module that
// exports them destructured ("Cannot remove destructured export").
const auth = sesame(authConfig)
export const loader = auth.loader
export const action = auth.action
