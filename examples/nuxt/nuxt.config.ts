// nuxt.config.ts
export default defineNuxtConfig({
  compatibilityDate: "2026-11-01",
  // useSession() (auto-imported), the session in the server's render and the browser's payload,
  // and the route middleware `sesame-auth`. Sesame's endpoints live under /auth (the module's
  // `sesame.basePath` and the folder of server/routes/auth/[...].ts).
  modules: ["@sesame/nuxt"],
  devtools: { enabled: false },
  telemetry: false,
})
