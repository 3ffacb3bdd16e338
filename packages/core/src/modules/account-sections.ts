/**
 * The plugins' parts of pages: the built-in account page's (`SesameModule.accountSection`) and a
 * plugin's page's places (`SesameModule.sections`), asked in the configured order. A part that
 * throws, or answers something not made with `html`, is logged and left out: the page must show
 * whatever a plugin does.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import { isSafeHtml, type SafeHtml } from "../pages/html.js"
import type { Awaitable } from "../types.js"
import { moduleRequest } from "./request.js"
import type { ModuleRequest, SesameModule } from "./types.js"

type Part = (request: ModuleRequest) => Awaitable<SafeHtml | null | undefined>

/** Each module's part that `partOf` finds, asked with the module's own request; `what` names it in errors. */
async function gather(ctx: RequestContext, what: string, partOf: (module: SesameModule) => Part | undefined): Promise<SafeHtml[]> {
  const sections: SafeHtml[] = []
  for (const module of ctx.config.modules.list) {
    const part = partOf(module)
    if (typeof part !== "function") continue
    try {
      const markup = await part(moduleRequest(ctx, module, true))
      if (markup === null || markup === undefined) continue
      if (!isSafeHtml(markup)) throw new TypeError(`Plugin "${module.id}"'s ${what} was not made with \`html\`.`)
      sections.push(markup)
    } catch (error) {
      ctx.config.logger.error(error instanceof Error ? error : new Error(String(error)))
    }
  }
  return sections
}

export function pluginAccountSections(ctx: RequestContext): Promise<SafeHtml[]> {
  return gather(ctx, "account section", (module) => module.accountSection?.bind(module))
}

/** The parts of `asker`'s page at `place` (`<asker id>.<name>`) that the other modules give, about `input`. */
export function placeSections(ctx: RequestContext, asker: SesameModule, place: string, input: Readonly<Record<string, string>>): Promise<SafeHtml[]> {
  if (typeof place !== "string" || !place.startsWith(`${asker.id}.`)) throw new TypeError(`Plugin "${asker.id}" shows sections of its own places only ("${asker.id}.<name>"); got ${JSON.stringify(place)}.`)
  const frozen = Object.freeze({ ...input })
  return gather(ctx, `section of "${place}"`, (module) => {
    const section = module.id === asker.id ? undefined : module.sections?.[place]
    return section && ((request) => section(request, frozen))
  })
}
