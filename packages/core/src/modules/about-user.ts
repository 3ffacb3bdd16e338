/**
 * What the built-in capabilities and the plugins keep for a user, as an admin's view of the user
 * shows it (`ModuleRequest.aboutUser`): the second factor, the organizations, … The built-in
 * capabilities answer first, then the plugins in the configured order. One that throws, or answers
 * something else than a title and lines of text, is logged and left out: the view must show
 * whatever one of them does.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import type { ModuleRequest, SesameModule, UserFacts } from "./types.js"

const isFacts = (value: unknown): value is UserFacts =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as UserFacts).title === "string" &&
  Array.isArray((value as UserFacts).items) &&
  (value as UserFacts).items.every((item) => typeof item === "string")

/** `requestFor` makes each plugin's own request of `ctx` (`request.ts`, which calls this). */
export async function aboutUser(ctx: RequestContext, userId: string, requestFor: (module: SesameModule) => ModuleRequest): Promise<(UserFacts & { source: string })[]> {
  const askers = [
    ...ctx.config.hooks.aboutUser.map((feature) => ({ source: feature.id, ask: () => feature.aboutUser(ctx, userId) })),
    ...ctx.config.modules.list.flatMap((module) =>
      typeof module.aboutUser === "function" ? [{ source: module.id, ask: () => module.aboutUser!(userId, requestFor(module)) }] : [],
    ),
  ]
  const found: (UserFacts & { source: string })[] = []
  for (const { source, ask } of askers) {
    try {
      const answer = await ask()
      if (answer === null || answer === undefined) continue
      // Read once, then checked: what is shown is what was checked (a getter cannot change it after).
      const facts = typeof answer === "object" ? { title: (answer as UserFacts).title, items: Array.isArray((answer as UserFacts).items) ? Array.from((answer as UserFacts).items) : undefined } : answer
      if (!isFacts(facts)) throw new TypeError(`"${source}" described a user with something else than { title, items: string[] }.`)
      found.push({ source, title: facts.title, items: facts.items })
    } catch (error) {
      ctx.config.logger.error(error instanceof Error ? error : new Error(String(error)))
    }
  }
  return found
}
