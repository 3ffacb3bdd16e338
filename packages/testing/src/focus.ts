/**
 * The controls the Tab key reaches on a page, each with the outline it shows while focused: for
 * the pages' check that every control is keyboard-usable and shows where the focus is.
 *
 * @module
 */
import type { Page } from "playwright-core"

/** A control the Tab key stopped on: its visible name (text, `name` or `id`) and its outline (`"solid 3px"`). */
export interface FocusStop {
  name: string
  outline: string
}

/** Tabs from where the focus is until it comes back to a control already seen (at most `limit` times). */
export async function focusStops(page: Page, limit = 40): Promise<FocusStop[]> {
  const stops: FocusStop[] = []
  const seen = new Set<number>()
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab")
    const focus = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null
      if (!el || el === document.body) return null
      const style = getComputedStyle(el)
      return { index: [...document.querySelectorAll("*")].indexOf(el), name: (el.innerText || el.getAttribute("name") || el.id).trim(), outline: `${style.outlineStyle} ${style.outlineWidth}` }
    })
    if (!focus || seen.has(focus.index)) break
    seen.add(focus.index)
    stops.push({ name: focus.name, outline: focus.outline })
  }
  return stops
}
