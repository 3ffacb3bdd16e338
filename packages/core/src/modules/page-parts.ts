/**
 * Plugins' parts of pages: gathered in the configured order, each asked with its plugin's own
 * request. A part that throws, or answers something not made with `html`, is logged and left out:
 * the page must show whatever a plugin does. The built-in account page's parts
 * (`account-sections.ts`) and a plugin's page's places (`SesameModule.sections`, below) both come
 * through here.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import { isSafeHtml, type SafeHtml } from "../pages/html.js"
import type { Awaitable } from "../types.js"
import type { ModuleRequest, SesameModule } from "./types.js"

type Part = (request: ModuleRequest) => Awaitable<SafeHtml | null | undefined>

/**
 * Each module's part that `partOf` finds, asked with `requestFor(module)` (`request.ts`'s
 * `moduleRequest`, handed in: it imports this file); `what` names the part in errors.
 */
export async function gatherParts(ctx: RequestContext, what: string, partOf: (module: SesameModule) => Part | undefined, requestFor: (module: SesameModule) => ModuleRequest): Promise<SafeHtml[]> {
  const parts: SafeHtml[] = []
  for (const module of ctx.config.modules.list) {
    const part = partOf(module)
    if (typeof part !== "function") continue
    try {
      const markup = await part(requestFor(module))
      if (markup === null || markup === undefined) continue
      if (!isSafeHtml(markup)) throw new TypeError(`Plugin "${module.id}"'s ${what} was not made with \`html\`.`)
      parts.push(markup)
    } catch (error) {
      ctx.config.logger.error(error instanceof Error ? error : new Error(String(error)))
    }
  }
  return parts
}

/** The parts of `asker`'s page at `place` (`<asker id>.<name>`) that the other modules give, about `input`. */
export function placeSections(ctx: RequestContext, asker: SesameModule, place: string, input: Readonly<Record<string, string>>, requestFor: (module: SesameModule) => ModuleRequest): Promise<SafeHtml[]> {
  if (typeof place !== "string" || !place.startsWith(`${asker.id}.`)) throw new TypeError(`Plugin "${asker.id}" shows sections of its own places only ("${asker.id}.<name>"); got ${JSON.stringify(place)}.`)
  const frozen = Object.freeze({ ...input })
  return gatherParts(
    ctx,
    `section of "${place}"`,
    (module) => {
      const section = module.id === asker.id ? undefined : module.sections?.[place]
      return section && ((request) => section(request, frozen))
    },
    requestFor,
  )
}
