/**
 * The `theme` option: what it accepts, and how it reaches the page (inside the style element only).
 */
import { describe, expect, it, vi } from "vitest"
import type { AuthConfig, Theme } from "@sesame/core"
import { isCssColour, isSafeImageSource, readableTextOn } from "../../src/pages/theme.js"
import { jwtConfig, send } from "../helpers.js"
import { svgLogo } from "./fixtures.js"

/** The text of the page's one style element. */
function styleOf(html: string): string {
  const styles = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)]
  expect(styles).toHaveLength(1)
  return styles[0]![1]!
}

describe("theme values the pages accept", () => {
  it("colours: hex, names and numeric colour functions; nothing that could leave a CSS declaration", () => {
    for (const ok of ["#fff", "#3b5bdb", "#3b5bdb80", "rebeccapurple", "rgb(0 0 0 / 50%)", "rgba(10, 20, 30, .5)", "hsl(210deg 40% 50%)", "oklch(0.7 0.1 200)"]) {
      expect(isCssColour(ok), ok).toBe(true)
    }
    for (const bad of [
      "",
      "red;}body{display:none",
      "red</style><script>alert(1)</script>",
      "url(https://evil.example/x)",
      "var(--x)",
      "rgb(0 0 0)}",
      'red"',
      "#12345",
      "expression(alert(1))",
      "red\\;",
    ]) {
      expect(isCssColour(bad), bad).toBe(false)
    }
  })

  it("images: data: images and paths on this site; never another host or a script URL", () => {
    for (const ok of [svgLogo, "data:image/png;base64,iVBORw0KGgo=", "/logo.svg", "/static/brand/logo.png?v=2"]) expect(isSafeImageSource(ok), ok).toBe(true)
    for (const bad of [
      "javascript:alert(1)",
      "JAVASCRIPT:alert(1)",
      "https://cdn.example/logo.svg",
      "http://localhost:3000/logo.svg",
      "//evil.example/logo.svg",
      "/\\evil.example/logo.svg",
      "/\t/evil.example/logo.svg",
      "data:text/html,<script>alert(1)</script>",
      "logo.svg",
      "",
    ]) {
      expect(isSafeImageSource(bad), bad).toBe(false)
    }
  })

  it("button text: white or near-black, whichever reads better on a hex or rgb() colour", () => {
    expect(readableTextOn("#000")).toBe("#ffffff")
    expect(readableTextOn("#3b5bdb")).toBe("#ffffff")
    expect(readableTextOn("#ffd60a")).toBe("#111318")
    expect(readableTextOn("rgb(255 255 255)")).toBe("#111318")
    expect(readableTextOn("rgba(0, 0, 0, 1)")).toBe("#ffffff")
    expect(readableTextOn("yellow")).toBeUndefined()
  })
})

describe("theme on the pages", () => {
  const page = async (theme: Theme, path = "/auth/signin") => (await send(jwtConfig({ theme }), path)).text()

  it("puts the brand colours in the style element, choosing a readable text colour unless buttonText is given", async () => {
    expect(styleOf(await page({ brandColor: "#ffd60a" }))).toContain(":root{--brand:#ffd60a;--brand-text:#111318}")
    expect(styleOf(await page({ brandColor: "#0b7a75", buttonText: "#fefefe" }))).toContain(":root{--brand:#0b7a75;--brand-text:#fefefe}")
    expect(styleOf(await page({ brandColor: "teal" }))).toContain(":root{--brand:teal;--brand-text:#ffffff}")
    expect(styleOf(await page({}))).not.toContain(":root{--brand:#")
  })

  it("never uses style= attributes (a strict CSP would block them)", async () => {
    for (const path of ["/auth/signin?error=x", "/auth/signout", "/auth/error", "/auth/verify-request"]) {
      expect(await page({ brandColor: "#0b7a75", logo: "/logo.svg" }, path)).not.toMatch(/\sstyle=/)
    }
  })

  it("marks the colour scheme on <html> and in the color-scheme meta", async () => {
    const cases: [Theme["colorScheme"], string, string][] = [
      [undefined, "scheme-auto", "light dark"],
      ["auto", "scheme-auto", "light dark"],
      ["light", "scheme-light", "light"],
      ["dark", "scheme-dark", "dark"],
    ]
    for (const [colorScheme, className, meta] of cases) {
      const html = await page({ colorScheme })
      expect(html).toContain(`<html lang="en" class="${className}">`)
      expect(html).toContain(`<meta name="color-scheme" content="${meta}">`)
    }
  })

  it("shows the logo above the card, as a decorative image", async () => {
    expect(await page({ logo: "/brand/logo.svg" }, "/auth/error")).toContain('<img class="logo" src="/brand/logo.svg" alt="">')
    expect(await page({ logo: svgLogo }, "/auth/verify-request")).toContain(`<img class="logo" src="${svgLogo.replace(/'/g, "&#39;")}" alt="">`)
    expect(await page({})).not.toContain('class="logo"')
  })

  it("refuses a value the pages cannot use safely, naming the option", async () => {
    const bad: [Theme, string][] = [
      [{ brandColor: "red;}</style><script>alert(1)</script>" }, "`theme.brandColor` must be a CSS colour"],
      [{ buttonText: "url(https://evil.example)" }, "`theme.buttonText` must be a CSS colour"],
      [{ logo: "javascript:alert(1)" }, "`theme.logo` must be a path on this site"],
      [{ logo: "https://cdn.example/logo.svg" }, "`theme.logo` must be a path on this site"],
      [{ colorScheme: "sepia" as Theme["colorScheme"] }, '`theme.colorScheme` must be "auto", "light" or "dark"'],
    ]
    for (const [theme, problem] of bad) {
      const error = vi.fn()
      const res = await send(jwtConfig({ theme, logger: { error } }), "/auth/signin")
      expect(res.status).toBe(500)
      const html = await res.text()
      expect(html).toContain("<h1>Server error</h1>")
      expect(html).not.toContain("alert(1)")
      expect(html).not.toContain("evil.example")
      expect(error.mock.calls[0]![0].message).toContain(problem)
    }
    const notAnObject = vi.fn()
    await send(jwtConfig({ theme: "dark" as AuthConfig["theme"], logger: { error: notAnObject } }), "/auth/signin")
    expect(notAnObject.mock.calls[0]![0].message).toContain("`theme` must be an object")
  })
})
