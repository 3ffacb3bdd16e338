/**
 * What the pages accept from a theme or a provider's `style`, and the CSS made from it.
 *
 * Theme values end up inside the page's `<style>` element (a strict Content-Security-Policy
 * forbids `style=` attributes), where escaping cannot help: a colour is therefore only used when it
 * matches a grammar that has no quotes, braces, semicolons, backslashes or `<`. Images are only
 * `data:` images or paths on the app's own origin, which is also all the page's CSP allows: a logo
 * is never fetched from a third-party host, and a `javascript:` URL is never a logo.
 *
 * @module
 */

/** Hex, a named colour, or a colour function with numeric arguments (`rgb(0 0 0 / 50%)`). */
const colourPattern =
  /^(?:#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})|[a-z]{3,30}|(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\((?:[\d\s.,%/+-]|deg|turn|rad|none)*\))$/i

export function isCssColour(value: unknown): value is string {
  return typeof value === "string" && colourPattern.test(value)
}

const imageData = /^data:image\/(?:png|gif|jpeg|webp|avif|svg\+xml)[;,]/i
/** A root-relative path: not `//host` or `/\host` (both reach another host), no whitespace or controls. */
const sitePath = /^\/(?![/\\])[^\s\\\u0000-\u001f\u007f]*$/

/** A `data:` image or a path on the app's own origin. */
export function isSafeImageSource(value: unknown): value is string {
  return typeof value === "string" && (imageData.test(value) || sitePath.test(value))
}

/** sRGB channels (0–255) of a hex or `rgb()` colour; undefined for other notations. */
function channels(colour: string): [number, number, number] | undefined {
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(colour)?.[1]
  if (hex) {
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join("") : hex
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number]
  }
  const rgb = /^rgba?\(\s*([\d.]+%?)[\s,]+([\d.]+%?)[\s,]+([\d.]+%?)/i.exec(colour)
  if (!rgb) return undefined
  const channel = (v: string) => Math.min(255, v.endsWith("%") ? (parseFloat(v) * 255) / 100 : parseFloat(v))
  return [channel(rgb[1]!), channel(rgb[2]!), channel(rgb[3]!)]
}

/** WCAG relative luminance. */
function luminance([r, g, b]: [number, number, number]): number {
  const linear = (c: number) => {
    const s = c / 255
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

const light = "#ffffff"
const dark = "#111318"
const darkLuminance = luminance([0x11, 0x13, 0x18])

/** White or near-black, whichever contrasts more with `background`; undefined when it cannot tell. */
export function readableTextOn(background: string): string | undefined {
  const rgb = channels(background)
  if (!rgb) return undefined
  const l = luminance(rgb)
  const withDarkText = (l + 0.05) / (darkLuminance + 0.05)
  const withLightText = 1.05 / (l + 0.05)
  return withLightText >= withDarkText ? light : dark
}

/** Background and text of a brand-coloured button: `text`, else the more readable of white and black. */
export function brandColours(background: unknown, text: unknown): { background: string; text: string } | undefined {
  if (!isCssColour(background)) return undefined
  return { background, text: isCssColour(text) ? text : (readableTextOn(background) ?? light) }
}
