/**
 * What the newcomer tests of the frameworks whose guides share the same pages (SvelteKit, Astro)
 * do in the browser, in one place: where the browser landed, axe, the JSON route as a script sees
 * it, and the built-in sign-in page's forms.
 *
 * @module
 */
import type { BrowserContext, Page } from "playwright-core"
import { describeViolations, runAxe } from "@sesame/testing"
import { expect } from "vitest"

export const pathOf = (page: Page) => {
  const url = new URL(page.url())
  return url.pathname + url.search
}

/**
 * Waits until the browser is on `path`. When it is not there in time, the failure says where it is
 * and what that page says (SvelteKit's and Astro's refusal of a form post is a page of plain text,
 * a guard's 500 its error page), instead of only that the wait timed out.
 */
export async function landOn(page: Page, path: string): Promise<void> {
  try {
    await page.waitForURL((url) => url.pathname === path, { timeout: 30_000 })
  } catch {
    const text = await page
      .locator("body")
      .innerText({ timeout: 5_000 })
      .catch(() => "(no page)")
    throw new Error(`Expected to land on ${path}, but the browser is on ${pathOf(page)}, which says:\n${text.slice(0, 600)}`)
  }
}

/** No critical or serious accessibility violation on the page as it is. */
export async function accessible(page: Page): Promise<void> {
  const { byImpact } = await runAxe(page)
  const blocking = [...byImpact.critical, ...byImpact.serious]
  expect(blocking, describeViolations(blocking)).toEqual([])
}

/** What the JSON route answers a JSON client with the context's cookies: its status and body. */
export async function me(context: BrowserContext): Promise<{ status: number; body: unknown }> {
  const response = await context.request.get("/api/me", { headers: { accept: "application/json" }, maxRedirects: 0 })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON: kept as text, which the failing assertion shows.
  }
  return { status: response.status(), body }
}

/** Fills and posts the built-in sign-in page's form of `provider` (located by where it posts). */
export async function signInWith(page: Page, provider: "credentials" | "password", email: string, password: string): Promise<void> {
  const form = page.locator(`form[action$="/auth/callback/${provider}"]`)
  await form.locator('input[name="email"]').fill(email)
  await form.locator('input[name="password"]').fill(password)
  await form.locator('button[type="submit"]').click()
}
