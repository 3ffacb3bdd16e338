/**
 * The plugins' parts of the built-in account page (`SesameModule.accountSection`), asked in the
 * configured order (`page-parts.ts`: a part that throws, or is not made with `html`, is logged and
 * left out).
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import type { SafeHtml } from "../pages/html.js"
import { gatherParts } from "./page-parts.js"
import { moduleRequest } from "./request.js"

export function pluginAccountSections(ctx: RequestContext): Promise<SafeHtml[]> {
  return gatherParts(ctx, "account section", (module) => module.accountSection?.bind(module), (module) => moduleRequest(ctx, module, true))
}
