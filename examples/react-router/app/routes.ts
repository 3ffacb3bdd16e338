// app/routes.ts
import { index, route, type RouteConfig } from "@react-router/dev/routes"

export default [
  index("routes/home.tsx"),
  // Guarded by the `authorize` middleware in app/root.tsx.
  route("dashboard", "routes/dashboard.tsx"),
  // Guarded in its loader by `requireSession(args)`.
  route("account", "routes/account.tsx"),
  // A resource route (no component): JSON.
  route("api/me", "routes/api.me.ts"),
  // The app's own sign-in page (`pages.signIn`), and the header's sign-out form's action.
  route("signin", "routes/signin.tsx"),
  route("signout", "routes/signout.ts"),
  // Sesame's endpoints and built-in pages, under /auth (the configuration's base path).
  route("auth/*", "routes/auth.ts"),
] satisfies RouteConfig
