/**
 * QR codes as inline SVG, for the two-factor setup page (an authenticator app scans the
 * `otpauth://` URI from the screen).
 *
 * The symbol is drawn by `@paulmillr/qr` and written here as one `<path>` of horizontal runs,
 * which keeps a typical URI's code to a few kilobytes. The page's Content-Security-Policy forbids
 * `style=` attributes, so colours and size are SVG attributes. It is dark on white whatever the
 * page's colour scheme (with its own white background), because cameras read dark modules on a
 * light ground, and it keeps the four-module quiet zone the standard asks for around it.
 *
 * @module
 */
import encodeQR from "@paulmillr/qr"
import { html, type SafeHtml } from "../pages/html.js"

/** Light modules around the symbol (ISO/IEC 18004 asks for four). */
const quietZone = 4
/** Screen pixels per module: whole pixels keep the edges sharp for a camera. */
const modulePixels = 4

/** The dark modules of `rows`, as one path of horizontal runs (`M x y h n v 1 h -n z`). */
function pathOf(rows: readonly (readonly boolean[])[]): string {
  let d = ""
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; ) {
      if (!row[x]) {
        x++
        continue
      }
      let end = x + 1
      while (row[end]) end++
      d += `M${x} ${y}h${end - x}v1h-${end - x}z`
      x = end
    }
  })
  return d
}

/**
 * The QR code of `text` as inline SVG, named `label` for assistive technology (`role="img"`).
 *
 * @param text What the code holds (an `otpauth://` URI on the setup page).
 * @param label The code's accessible name, in the page's language.
 */
export function qrSvg(text: string, label: string): SafeHtml {
  const rows = encodeQR(text, "raw", { border: quietZone })
  const size = rows.length
  const pixels = size * modulePixels
  return html`<svg xmlns="http://www.w3.org/2000/svg" class="qr" role="img" aria-label="${label}" viewBox="0 0 ${size} ${size}" width="${pixels}" height="${pixels}" shape-rendering="crispEdges"><rect width="${size}" height="${size}" fill="#ffffff"/><path fill="#000000" d="${pathOf(rows)}"/></svg>`
}
