/**
 * Accessibility checks with axe-core, run inside the page under test.
 *
 * The axe script is evaluated through the DevTools protocol rather than added as a `<script>`
 * element, so pages with a strict Content-Security-Policy (no inline script) can be checked as
 * they are served.
 *
 * @module
 */
import { readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import type { AxeResults, ImpactValue, Result, RunOptions } from "axe-core"

export type Impact = NonNullable<ImpactValue>
import type { Page } from "playwright-core"

/** WCAG 2.0–2.2 A and AA rules, plus axe's best practices (landmarks, one `h1`, …). */
export const defaultAxeTags: readonly string[] = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]

export interface AxeReport {
  violations: Result[]
  /** Violations by impact; every impact is present, possibly empty. */
  byImpact: Record<Impact, Result[]>
}

let axeSource: Promise<string> | undefined

function loadAxe(): Promise<string> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")
  return axeSource
}

/**
 * Runs axe on the page's current document, by default with {@link defaultAxeTags}. Only violations
 * are detailed (`resultTypes`), which roughly halves the run time on small pages.
 */
export async function runAxe(
  page: Page,
  options: RunOptions = { runOnly: { type: "tag", values: [...defaultAxeTags] }, resultTypes: ["violations"] },
): Promise<AxeReport> {
  // Next.js streams a page's metadata after its body on a client-side navigation (a server action
  // that redirects, for one): for a moment the new page is on screen without its <title>. Give the
  // title that moment; a page that really has none still fails axe's document-title rule below.
  await page.waitForFunction(() => document.title.trim() !== "", undefined, { timeout: 3000 }).catch(() => {})
  await page.evaluate(await loadAxe())
  const results = await page.evaluate(
    (runOptions) => (window as unknown as { axe: { run(context: Document, options: RunOptions): Promise<AxeResults> } }).axe.run(document, runOptions),
    options,
  )
  const byImpact: Record<Impact, Result[]> = { critical: [], serious: [], moderate: [], minor: [] }
  for (const violation of results.violations) byImpact[violation.impact ?? "minor"].push(violation)
  return { violations: results.violations, byImpact }
}

/** One line per violation (`impact rule-id: help (n nodes: selectors)`), for assertion messages and logs. */
export function describeViolations(violations: readonly Result[]): string {
  return violations
    .map((v) => `${v.impact ?? "?"} ${v.id}: ${v.help} (${v.nodes.length} nodes: ${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)
    .join("\n")
}
