/**
 * The configuration's modules, checked once: ids, endpoint paths, server function names and model
 * names unique; a module that stores something off when the adapter has no store (so that new
 * storage never becomes mandatory for a whole configuration); and the tables the hubs read: the
 * endpoints by `"<METHOD> <path>"`, the event handlers by event, the server functions by name.
 *
 * @module
 */
import { rateLimitFamilies } from "./route.js"
import type { Adapter } from "../adapters/types.js"
import type { Logger } from "../logger.js"
import { checkModel, type ModelDeclaration, type Store } from "../store/model.js"
import type { EventCallbacks } from "../types.js"
import { languageTag } from "../pages/i18n.js"
import { sessionPartModel } from "./session-parts.js"
import { moduleSealing } from "./sealing.js"
import type { ModuleContext, ModuleFunction, ModuleRoute, ModuleService, ModuleSigningKeys, ModuleUsers, SesameModule } from "./types.js"

/** One of a module's endpoints, with the module. */
export interface ResolvedRoute {
  module: SesameModule
  route: ModuleRoute
}

type Handler = (message: never, context: ModuleContext) => unknown

/** The modules of a configuration, as the hubs read them. */
export interface ResolvedModules {
  /** The modules that are on, in the configured order. */
  readonly list: readonly SesameModule[]
  /** Modules that are off, by id, with the reason (the start-up log says it). */
  readonly off: ReadonlyMap<string, string>
  /** Endpoints by `"<METHOD> <path>"`. */
  readonly routes: ReadonlyMap<string, ResolvedRoute>
  /** The paths of the endpoints (whatever the method): what `matchRoute` recognises. */
  readonly paths: ReadonlySet<string>
  /** Handlers by event, in the modules' order. */
  readonly events: ReadonlyMap<keyof EventCallbacks, readonly Handler[]>
  /** Server functions by name; a function of a module that is off is there too, and says why it cannot run. */
  readonly api: ReadonlyMap<string, { module: SesameModule; fn: ModuleFunction; off?: string }>
  /** The modules with a part of the session (`session`), in the configured order. */
  readonly sessions: readonly SesameModule[]
  /** The ids of the modules that set their part of a session themselves (`keepsSessionPart`). */
  readonly keeping: ReadonlySet<string>
  /** Machine-to-machine APIs by path prefix (`services`), longest prefix first. */
  readonly services: readonly { prefix: string; module: SesameModule; service: ModuleService }[]
  /** The modules with providers of their own (`providers`), by id: their providers' ids start with `<id>-`. */
  readonly providerSources: ReadonlyMap<string, SesameModule>
  /** The modules that add claims to API tokens (`tokenClaims`), in the configured order. */
  readonly claimers: readonly SesameModule[]
  /** The modules that have a word on every sign-in (`checkSignIn`), in the configured order. */
  readonly signInChecks: readonly SesameModule[]
  /** The modules that start acting sessions (`acting`), in the configured order. */
  readonly actors: readonly SesameModule[]
  /** The modules that may hold a user back (`userStanding`), in the configured order. */
  readonly standings: readonly SesameModule[]
  /** The modules that make sessions of their own credentials (`credentialSession`), in the configured order. */
  readonly credentialSessions: readonly SesameModule[]
  /**
   * Every model the modules declare, the modules that are off included (so `migrate` makes their
   * tables), and the core's `sessionPart` when one of them keeps parts of sessions.
   */
  readonly models: readonly ModelDeclaration[]
  /** What each part of a module works with. */
  readonly context: ModuleContext
  /** The modules' texts by language tag (`messages`), all modules together: the app's `messages` may override them. */
  readonly messages: Readonly<Record<string, Readonly<Record<string, string>>>>
}

const idPattern = /^[a-z][a-z0-9-]{0,39}$/
const routeKey = /^(GET|POST) ([a-z0-9-]+(?:\/[a-z0-9-]+)*)$/
const apiName = /^[A-Za-z_$][A-Za-z0-9_$]*$/
const servicePrefix = /^[a-z0-9-]+(?:\/[a-z0-9-]+)*$/

/**
 * Checks `plugins` and makes the tables. `reserved` says whether a path's first segment is one of
 * the core's endpoints, which model names are Sesame's own, and which keys of the session and claims
 * of its token are taken (a module's part of the session is under its id). Throws a `TypeError` naming the
 * module and what is wrong.
 */
export function resolveModules(
  plugins: unknown,
  adapter: Adapter | undefined,
  logger: Logger,
  reserved: { path(segment: string): boolean; models: ReadonlySet<string>; sessionKeys: ReadonlySet<string> },
  secrets: readonly string[],
  users?: ModuleUsers,
  signingKeys?: ModuleSigningKeys,
  securityEvent?: ModuleContext["securityEvent"],
): ResolvedModules {
  if (plugins !== undefined && !Array.isArray(plugins)) throw new TypeError("`plugins` must be an array of modules.")
  const list: SesameModule[] = []
  const off = new Map<string, string>()
  const routes = new Map<string, ResolvedRoute>()
  const events = new Map<keyof EventCallbacks, Handler[]>()
  const api = new Map<string, { module: SesameModule; fn: ModuleFunction; off?: string }>()
  const models: ModelDeclaration[] = []
  const sessions: SesameModule[] = []
  const keeping = new Set<string>()
  const claimers: SesameModule[] = []
  const signInChecks: SesameModule[] = []
  const actors: SesameModule[] = []
  const standings: SesameModule[] = []
  const credentialSessions: SesameModule[] = []
  const providerSources = new Map<string, SesameModule>()
  const services: { prefix: string; module: SesameModule; service: ModuleService }[] = []
  const modelNames = new Set<string>()
  const messages: Record<string, Record<string, string>> = {}
  const store: Store | undefined = adapter?.store

  for (const candidate of (plugins ?? []) as unknown[]) {
    const module = candidate as SesameModule
    if (!module || typeof module !== "object" || typeof module.id !== "string" || !idPattern.test(module.id)) {
      throw new TypeError(`Each plugin must be a module whose \`id\` is lowercase letters, digits and hyphens; got ${JSON.stringify((module as { id?: unknown } | null)?.id ?? module)}.`)
    }
    const named = `Plugin "${module.id}"`
    if (list.some((m) => m.id === module.id) || off.has(module.id)) throw new TypeError(`${named} is listed twice.`)
    if (reserved.path(module.id)) throw new TypeError(`${named}: "${module.id}" is the path of one of Sesame's endpoints; choose another id.`)
    for (const model of module.models ?? []) {
      checkModel(model)
      if (reserved.models.has(model.name) || model.name === sessionPartModel.name) throw new TypeError(`${named}: model "${model.name}" is one of Sesame's own; choose another name.`)
      if (modelNames.has(model.name)) throw new TypeError(`${named}: model "${model.name}" is declared twice.`)
      modelNames.add(model.name)
      models.push(model)
    }
    for (const [lang, texts] of Object.entries(checkedMessages(module))) Object.assign((messages[lang] ??= {}), texts)
    if (module.keepsSessionPart !== undefined && typeof module.keepsSessionPart !== "boolean") throw new TypeError(`${named}: \`keepsSessionPart\` must be a boolean.`)
    if (module.keepsSessionPart && typeof module.session !== "function") throw new TypeError(`${named}: \`keepsSessionPart\` needs \`session\`, which is asked with the value set.`)
    if (module.acting !== undefined && (typeof module.acting !== "function" || !module.keepsSessionPart)) {
      throw new TypeError(`${named}: \`acting\` must be a function, and needs \`keepsSessionPart\`: an acting session is marked by the module's part of it.`)
    }
    if (module.actingHolds !== undefined && (typeof module.actingHolds !== "function" || module.acting === undefined)) {
      throw new TypeError(`${named}: \`actingHolds\` must be a function, and needs \`acting\`: it is asked of the acting sessions the module marks.`)
    }
    const reason = !store && module.models?.length ? "its models need an adapter with a generic store (`adapter.store`)"
      : !store && module.keepsSessionPart ? "it keeps parts of sessions (`keepsSessionPart`), which needs an adapter with a generic store (`adapter.store`)"
      : undefined
    for (const [name, fn] of Object.entries(module.api ?? {})) {
      if (!apiName.test(name) || typeof fn !== "function") throw new TypeError(`${named}: server function "${name}" must be a function with a JavaScript identifier for a name.`)
      if (api.has(name)) throw new TypeError(`${named}: server function "${name}" is also ${api.get(name)!.module.id}'s.`)
      api.set(name, { module, fn, ...(reason ? { off: reason } : {}) })
    }
    if (reason) {
      off.set(module.id, reason)
      continue
    }
    list.push(module)
    for (const [key, route] of Object.entries(module.routes ?? {})) {
      const match = routeKey.exec(key)
      if (!match || (match[2] !== module.id && !match[2]!.startsWith(`${module.id}/`))) {
        throw new TypeError(`${named}: endpoint "${key}" must be "GET <path>" or "POST <path>" with a path of lowercase segments starting with "${module.id}".`)
      }
      if (!route || typeof route.run !== "function") throw new TypeError(`${named}: endpoint "${key}" needs a \`run\` function.`)
      if (route.rateLimit !== undefined && !rateLimitFamilies.includes(route.rateLimit)) {
        throw new TypeError(`${named}: endpoint "${key}" has \`rateLimit: ${JSON.stringify(route.rateLimit)}\`, which is no family: ${rateLimitFamilies.join(", ")}.`)
      }
      if (route.crossSite === true && (match[1] !== "POST" || route.csrf !== false)) {
        throw new TypeError(`${named}: endpoint "${key}" takes posts from other sites (\`crossSite\`), so it must be a POST with \`csrf: false\` (another site's form has no CSRF token).`)
      }
      routes.set(key, { module, route })
    }
    if (module.session !== undefined) {
      if (typeof module.session !== "function") throw new TypeError(`${named}: \`session\` must be a function.`)
      if (reserved.sessionKeys.has(module.id)) throw new TypeError(`${named}: its part of the session would be \`${module.id}\`, a key Sesame or \`user.fields\` uses; choose another id.`)
      sessions.push(module)
      if (module.keepsSessionPart) keeping.add(module.id)
    }
    for (const [prefix, service] of Object.entries(module.services ?? {})) {
      if (!servicePrefix.test(prefix) || (prefix !== module.id && !prefix.startsWith(`${module.id}/`))) {
        throw new TypeError(`${named}: service "${prefix}" must be a path of lowercase segments starting with "${module.id}".`)
      }
      if (!service || typeof service.handle !== "function") throw new TypeError(`${named}: service "${prefix}" needs a \`handle\` function.`)
      services.push({ prefix, module, service })
    }
    if (module.providers !== undefined) {
      if (typeof module.providers !== "object" || module.providers === null || typeof module.providers.find !== "function") {
        throw new TypeError(`${named}: \`providers\` must be an object with a \`find\` function.`)
      }
      providerSources.set(module.id, module)
    }
    if (module.tokenClaims !== undefined) {
      if (typeof module.tokenClaims !== "function") throw new TypeError(`${named}: \`tokenClaims\` must be a function.`)
      claimers.push(module)
    }
    if (module.checkSignIn !== undefined) {
      if (typeof module.checkSignIn !== "function") throw new TypeError(`${named}: \`checkSignIn\` must be a function.`)
      signInChecks.push(module)
    }
    if (module.acting !== undefined) actors.push(module)
    if (module.sections !== undefined) {
      if (typeof module.sections !== "object" || module.sections === null) throw new TypeError(`${named}: \`sections\` must be an object of functions by place.`)
      for (const [place, section] of Object.entries(module.sections)) {
        if (!/^[a-z][a-z0-9-]{0,39}\.[a-z][a-z0-9-]{0,39}$/.test(place) || place.startsWith(`${module.id}.`)) {
          throw new TypeError(`${named}: section "${place}" must name another plugin's place, "<plugin id>.<name>".`)
        }
        if (typeof section !== "function") throw new TypeError(`${named}: section "${place}" must be a function.`)
      }
    }
    for (const hook of ["userStanding", "credentialSession"] as const) {
      if (module[hook] === undefined) continue
      if (typeof module[hook] !== "function") throw new TypeError(`${named}: \`${hook}\` must be a function.`)
      if (hook === "credentialSession" && reserved.sessionKeys.has(module.id)) {
        throw new TypeError(`${named}: its part of a credential's session would be \`${module.id}\`, a key Sesame or \`user.fields\` uses; choose another id.`)
      }
      ;(hook === "userStanding" ? standings : credentialSessions).push(module)
    }
    for (const [event, handler] of Object.entries(module.events ?? {})) {
      if (typeof handler !== "function") throw new TypeError(`${named}: the "${event}" event handler must be a function.`)
      const handlers = events.get(event as keyof EventCallbacks) ?? []
      handlers.push(handler as Handler)
      events.set(event as keyof EventCallbacks, handlers)
    }
  }
  if (off.size > 0) logger.debug("config: plugins off", Object.fromEntries(off))
  return Object.freeze({
    list,
    off,
    routes,
    paths: new Set([...routes.keys()].map((key) => key.slice(key.indexOf(" ") + 1))),
    events,
    api,
    sessions,
    keeping,
    services: services.sort((a, b) => b.prefix.length - a.prefix.length),
    providerSources,
    claimers,
    signInChecks,
    actors,
    standings,
    credentialSessions,
    models: withSessionParts(plugins as readonly SesameModule[] | undefined, models),
    context: Object.freeze({ store, logger: { debug: logger.debug, error: logger.error }, sealing: moduleSealing(secrets), ...(users ? { users } : {}), ...(signingKeys ? { signingKeys } : {}), ...(securityEvent ? { securityEvent } : {}) }),
    messages: Object.freeze(Object.fromEntries(Object.entries(messages).map(([lang, texts]) => [lang, Object.freeze(texts)]))),
  })
}

/**
 * The module's `messages`, checked: language tags as keys (one spelling each), English with every
 * key, each key the module's own (`<id>.…`), each text a string. Tags are lower-cased, as the
 * pages' translator compares them.
 */
function checkedMessages(module: SesameModule): Record<string, Readonly<Record<string, string>>> {
  const named = `Plugin "${module.id}"`
  if (module.messages === undefined) return {}
  if (typeof module.messages !== "object" || module.messages === null) throw new TypeError(`${named}: \`messages\` must be an object of texts by language.`)
  const byLang: Record<string, Readonly<Record<string, string>>> = {}
  for (const [lang, texts] of Object.entries(module.messages)) {
    if (!languageTag.test(lang)) throw new TypeError(`${named}: \`messages\` has a key ${JSON.stringify(lang)} that is not a language tag such as "fr" or "pt-BR".`)
    if (Object.hasOwn(byLang, lang.toLowerCase())) throw new TypeError(`${named}: \`messages\` names the language "${lang}" twice.`)
    if (typeof texts !== "object" || texts === null) throw new TypeError(`${named}: \`messages.${lang}\` must be an object of texts by key.`)
    for (const [key, text] of Object.entries(texts)) {
      if (!key.startsWith(`${module.id}.`)) throw new TypeError(`${named}: text "${key}" must start with "${module.id}.".`)
      if (typeof text !== "string") throw new TypeError(`${named}: \`messages.${lang}["${key}"]\` must be a string.`)
    }
    byLang[lang.toLowerCase()] = texts
  }
  const english = byLang.en
  if (!english) throw new TypeError(`${named}: \`messages\` needs English (\`en\`), which stands in for any text another language leaves out.`)
  for (const [lang, texts] of Object.entries(byLang)) {
    const unknown = Object.keys(texts).find((key) => !Object.hasOwn(english, key))
    if (unknown) throw new TypeError(`${named}: \`messages.${lang}\` has "${unknown}", which English does not.`)
  }
  return byLang
}

/** `models`, with the core's model of session parts when one of `plugins` keeps them (`keepsSessionPart`). */
export function withSessionParts(plugins: readonly SesameModule[] | undefined, models: readonly ModelDeclaration[]): ModelDeclaration[] {
  return (plugins ?? []).some((module) => module?.keepsSessionPart === true) ? [...models, sessionPartModel] : [...models]
}
