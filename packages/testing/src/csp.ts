/**
 * Records Content-Security-Policy violations in a page: the `securitypolicyviolation` events
 * (listened to by an init script, which the page's own CSP does not govern) and Chromium's console
 * reports of blocked resources.
 *
 * @module
 */
import type { Page } from "playwright-core"

export interface CspWatcher {
  /** The violations so far in the current document and, from the console, since watching began. */
  violations(): Promise<string[]>
}

/** Starts watching `page`; call before the first navigation you care about. */
export async function watchCsp(page: Page): Promise<CspWatcher> {
  const fromConsole: string[] = []
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) fromConsole.push(message.text())
  })
  await page.addInitScript(() => {
    const store = window as unknown as { __cspViolations?: string[] }
    store.__cspViolations = []
    document.addEventListener("securitypolicyviolation", (event) => {
      store.__cspViolations?.push(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"}`)
    })
  })
  return {
    async violations() {
      const fromEvents = await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])
      return [...fromEvents, ...fromConsole]
    },
  }
}
