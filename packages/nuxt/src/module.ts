/**
 * `@sesame/nuxt`: the Nuxt module. In `nuxt.config.ts`, `modules: ["@sesame/nuxt"]` (options under
 * `sesame`) gives the app's Vue side:
 *
 * - `useSession()`, auto-imported: the session, rendered on the server and hydrated in the browser
 *   without a request, with `refresh()`, `signIn()` and `signOut()`;
 * - the named route middleware `sesame-auth` (`definePageMeta({ middleware: "sesame-auth" })`),
 *   which sends a visitor without a session to Sesame's sign-in page, on the server's render and on
 *   client-side navigation alike.
 *
 * The server side (the auth route, the session for every request, the guards) is
 * `@sesame/nuxt/server`, in the app's `server/` folder.
 *
 * @module
 */
import { addImports, addPlugin, addRouteMiddleware, createResolver, defineNuxtModule } from "@nuxt/kit"
import { isBasePath, normaliseBasePath } from "@sesame/core/client"

/** The options of the module, under `sesame` in `nuxt.config.ts`. */
export interface ModuleOptions {
  /**
   * Where Sesame's endpoints live: the folder of the route `server/routes/auth/[...].ts`, and the
   * `basePath` of the configuration. Default `/auth`.
   */
  basePath: string
}

/** What the module puts in `runtimeConfig.public.sesame`, for the plugin, `useSession()` and the route middleware. */
export interface SesamePublicConfig {
  basePath: string
}

declare module "nuxt/schema" {
  interface PublicRuntimeConfig {
    sesame: SesamePublicConfig
  }
}

/**
 * The module.
 *
 * @example
 * ```ts
 * // nuxt.config.ts
 * export default defineNuxtConfig({
 *   modules: ["@sesame/nuxt"],
 *   // sesame: { basePath: "/auth" },
 * })
 * ```
 */
export default defineNuxtModule<ModuleOptions>({
  meta: {
    name: "@sesame/nuxt",
    configKey: "sesame",
    compatibility: { nuxt: ">=4.5.1" },
  },
  defaults: { basePath: "/auth" },
  setup(options, nuxt) {
    if (!isBasePath(options.basePath)) throw new TypeError(`@sesame/nuxt: sesame.basePath must be a path such as "/auth", not ${JSON.stringify(options.basePath)}.`)
    // Beside this file: src/runtime/*.ts in the repository's tests, dist/runtime/*.js once built.
    const { resolve } = createResolver(import.meta.url)
    const runtime = resolve("./runtime")
    nuxt.options.runtimeConfig.public.sesame = { basePath: normaliseBasePath(options.basePath) }
    // The runtime imports Nuxt's `nuxt/app`, which only Nuxt's build resolves: never left to Node.js.
    nuxt.options.build.transpile.push(runtime)
    addPlugin({ src: resolve(runtime, "plugin"), name: "sesame" })
    addImports({ name: "useSession", from: resolve(runtime, "composables") })
    addRouteMiddleware({ name: "sesame-auth", path: resolve(runtime, "middleware", "auth") })
  },
})
