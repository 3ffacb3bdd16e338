/**
 * Button logos. Sesame draws its own mark for every built-in provider rather than shipping the
 * services' artwork: a monogram (one or two letters) on a tile of the brand colour, with a thin
 * light edge so that the tile stays visible on a button of the same colour. The SVG is small,
 * static and self-contained (no fonts, images or scripts to fetch), and becomes a `data:` URL,
 * which the sign-in page's Content-Security-Policy (`img-src 'self' data:`) allows.
 *
 * @module
 */
import type { OAuthProviderButtonStyles } from "../../oauth/types.js"

/** Characters of a monogram: letters, digits and a few marks; never markup. */
const monogramText = /^[A-Za-z0-9.+]{1,2}$/
const colour = /^#[0-9a-f]{6}$/i

/** The SVG of a monogram tile. */
export function monogramSvg(letters: string, background: string, foreground = "#ffffff"): string {
  if (!monogramText.test(letters) || !colour.test(background) || !colour.test(foreground)) {
    throw new TypeError(`A monogram needs one or two letters and #rrggbb colours; got ${JSON.stringify([letters, background, foreground])}.`)
  }
  const size = letters.length === 1 ? 15 : 11
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">` +
    `<rect x="0.5" y="0.5" width="23" height="23" rx="5" fill="${background}" stroke="#ffffff" stroke-opacity="0.6"/>` +
    `<text x="12" y="12" dy="0.35em" text-anchor="middle" font-family="Helvetica,Arial,sans-serif" font-size="${size}" font-weight="700" fill="${foreground}">${letters}</text>` +
    `</svg>`
  )
}

/** A provider's button style: its brand colour, and a monogram logo as a `data:` URL. */
export function brandStyle(letters: string, brandColor: string, foreground?: string): OAuthProviderButtonStyles {
  return { brandColor, logo: `data:image/svg+xml,${encodeURIComponent(monogramSvg(letters, brandColor, foreground))}` }
}
