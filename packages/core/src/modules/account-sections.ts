/**
 * The plugins' parts of the built-in account page (`SesameModule.accountSection`), asked in the
 * configured order. A part that throws, or answers something not made with `html`, is logged and
 * left out: the page must show whatever a plugin does.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import { isSafeHtml, type SafeHtml } from "../pages/html.js"
import { moduleRequest } from "./request.js"

export async function pluginAccountSections(ctx: RequestContext): Promise<SafeHtml[]> {
  const sections: SafeHtml[] = []
  for (const module of ctx.config.modules.list) {
    if (typeof module.accountSection !== "function") continue
    try {
      const markup = await module.accountSection(moduleRequest(ctx, module, true))
      if (markup === null || markup === undefined) continue
      if (!isSafeHtml(markup)) throw new TypeError(`Plugin "${module.id}"'s account section was not made with \`html\`.`)
      sections.push(markup)
    } catch (error) {
      ctx.config.logger.error(error instanceof Error ? error : new Error(String(error)))
    }
  }
  return sections
}
