/**
 * The documentation site as a reader gets it: built (docs/scripts/build.mjs), served as static
 * files, and read over HTTP and in Debian's Chromium. What passing proves:
 *
 * - **Links**: every `<a href>` of every page (content, nav bar, sidebar, footer) that points into
 *   the site leads to a page that exists and, when it names a `#fragment`, to an element of that
 *   page with that id. VitePress's own check (`ignoreDeadLinks`) sees neither the sidebar of the
 *   config nor anchors. Links elsewhere (other hosts, `mailto:`, the reader's own app on
 *   `localhost:3000`) are not followed. All broken links are reported in one message.
 * - **Accessibility**: every page that is not API reference, and 25 API pages spread over the
 *   packages, have no axe-core violation of the repository's default tags (WCAG 2.0–2.2 A/AA and
 *   best practices), in the light scheme; the home page, a guide and others in the dark scheme too.
 * - **Search**: the local search offers a page for a term that is its subject, opened by a click
 *   and by the keyboard alone (`/`, Ctrl+K, typing, ArrowDown, Enter navigates to the chosen result).
 * - **Keyboard**: the first Tab reaches "Skip to content", and Tab reaches every visible sidebar link.
 *
 * Screenshots are kept in test-artifacts/screenshots/docs-site/. The link checker's self-check
 * feeds it an in-memory site with a broken link and a missing anchor, so that this test can fail.
 * The checks are in ./site.ts.
 */
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { describeViolations, freePort, launchBrowser, runAxe, saveScreenshot, type TestServer } from "@sesame/testing"
import { buildSite } from "../scripts/build.mjs"
import { distDir, root } from "../scripts/paths.mjs"
import {
  apiPrefix,
  apiSample,
  checkLinks,
  compare,
  describeBroken,
  htmlPages,
  httpLoader,
  idsOf,
  inParallel,
  resolveFile,
  serveStatic,
  type LoadedPage,
} from "./site.js"

const suite = "docs-site"
const viewport = { width: 1280, height: 900 }
const minutes = 60_000

/**
 * Terms of the local search, each with the page a reader who types it must be offered among the 16
 * results the search box shows: a page's own subject (its title in the sidebar, or a provider of
 * the providers' table), which other pages, the API reference above all, mention less. A term as
 * distinctive as `Retry-After` is not: the API reference's `StorageUnavailable` pages, six of them
 * with several sections each, fill the 16 results before any guide.
 */
const searchTerms: readonly { term: string; page: string }[] = [
  { term: "Discord", page: "/reference/providers.html" },
  { term: "passkey", page: "/features/passkeys.html" },
  { term: "storage fails", page: "/deploy/outages.html" },
]

let server: TestServer
let browser: Browser
let pages: string[] = []
/** Seconds each part took, and what it counted, for the summary printed at the end. */
const timings: Record<string, number> = {}
const counts: Record<string, number> = {}

async function timed<T>(part: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now()
  try {
    return await run()
  } finally {
    timings[part] = (timings[part] ?? 0) + (performance.now() - started) / 1000
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A build that another process may be writing at the same time: wait for a complete one. */
async function build(): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await buildSite()
      if (["index.html", "404.html", "hashmap.json"].every((file) => existsSync(join(distDir, file)))) return
      if (attempt >= 3) throw new Error("docs/build/dist is incomplete after the build")
    } catch (error) {
      if (attempt >= 3) throw error
      console.warn(`[docs-site] the build failed (another build writing docs/build?), retrying in 20 s: ${String(error)}`)
    }
    await sleep(20_000)
  }
}

beforeAll(async () => {
  await timed("build", build)
  pages = htmlPages(distDir)
  server = await serveStatic(distDir)
  browser = await launchBrowser()
}, 10 * minutes)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  const parts = Object.entries(timings).map(([part, seconds]) => `${part} ${seconds.toFixed(1)} s`)
  const counted = Object.entries(counts).map(([what, n]) => `${n} ${what}`)
  console.log(`[docs-site] checked ${counted.join(", ")}; ${parts.join(", ")}`)
})

/** Opens `path` and waits until VitePress has hydrated the page (its Vue app is mounted). */
async function open(page: Page, path: string): Promise<void> {
  const response = await page.goto(`${server.origin}${path}`, { waitUntil: "load" })
  expect(response?.status(), `${path} answers 200`).toBe(200)
  await page.waitForFunction(() => Boolean((document.querySelector("#app") as unknown as { __vue_app__?: unknown } | null)?.__vue_app__))
}

async function newContext(colorScheme: "light" | "dark"): Promise<BrowserContext> {
  return browser.newContext({ viewport, colorScheme })
}

/** Runs axe on each path, two tabs at a time; returns one report per page with violations. */
async function axeEach(context: BrowserContext, paths: readonly string[]): Promise<{ path: string; ids: string[]; details: string }[]> {
  const tabs = [await context.newPage(), await context.newPage()]
  const failures: { path: string; ids: string[]; details: string }[] = []
  await inParallel(paths, tabs, async (tab, path) => {
    await open(tab, path)
    const { violations } = await runAxe(tab)
    if (violations.length > 0) failures.push({ path, ids: violations.map((v) => v.id), details: describeViolations(violations) })
  })
  await Promise.all(tabs.map((tab) => tab.close()))
  return failures.sort((a, b) => compare(a.path, b.path))
}

/** The failures of {@link axeEach} as one message: which rules on how many pages, then each page's detail. */
function describeAxeFailures(failures: readonly { path: string; ids: string[]; details: string }[]): string {
  const byRule = new Map<string, string[]>()
  for (const { path, ids } of failures) for (const id of ids) byRule.set(id, [...(byRule.get(id) ?? []), path])
  const rules = [...byRule].map(([id, paths]) => `${id}: ${paths.length} pages (${paths.slice(0, 5).join(", ")}${paths.length > 5 ? ", …" : ""})`)
  return [`axe violations on ${failures.length} pages`, ...rules, "", ...failures.map(({ path, details }) => `${path}:\n${details}`)].join("\n")
}

describe("the link checker (self-check)", () => {
  const origin = "http://127.0.0.1:1"
  const site: Record<string, string> = {
    "/index.html": `<nav><a href="/guide.html">Guide</a><a href="/missing.html">Missing</a></nav>
      <main><h2 id="intro">Intro</h2><a href="#intro">here</a><a href="#nowhere">nowhere</a>
      <a href="guide.html#setup">setup</a><a href="guide.html#teardown">teardown</a>
      <a href="/dir/">dir</a><a href="/guide.html?x=1&amp;y=2#caf%C3%A9">café</a>
      <a href="http://localhost:3000/api/auth/signin">your app</a><a href="https://example.com/">elsewhere</a>
      <a href="mailto:ada@example.com">mail</a></main>
      <script>document.write('<a href="/in-a-script.html">')</script>`,
    "/guide.html": `<h1 id="guide">Guide</h1><h2 id="setup">Setup</h2><h2 id="café">Café</h2><a href="./index.html#intro">back</a>`,
    "/dir/index.html": `<p>A folder's index</p>`,
  }
  const loaded: string[] = []
  const load = async (pathname: string): Promise<LoadedPage> => {
    loaded.push(pathname)
    const html = site[pathname]
    return html === undefined ? { status: 404 } : { status: 200, html }
  }

  it("finds the link to a missing page and the missing anchors, follows no other origin, loads each page once", async () => {
    const report = await checkLinks(Object.keys(site), origin, load)
    expect(report.broken).toEqual([
      { page: "/index.html", href: "#nowhere", problem: "no anchor" },
      { page: "/index.html", href: "/missing.html", problem: "no such page" },
      { page: "/index.html", href: "guide.html#teardown", problem: "no anchor" },
    ])
    expect(report).toMatchObject({ pages: 3, internal: 9, external: 3, anchors: 6 })
    expect(loaded.sort()).toEqual(["/dir/index.html", "/guide.html", "/index.html", "/missing.html"])
    expect(describeBroken(report.broken)).toBe(
      "3 broken links:\n/index.html → #nowhere: no anchor\n/index.html → /missing.html: no such page\n/index.html → guide.html#teardown: no anchor",
    )
  })

  it("reports links broken alike on many pages once, naming the first pages", () => {
    const many = ["/a.html", "/b.html", "/c.html", "/d.html", "/e.html"]
    const broken = [
      ...many.map((page) => ({ page, href: "/gone.html", problem: "no such page" as const })),
      ...many.map((page) => ({ page, href: "/also-gone.html", problem: "no such page" as const })),
      { page: "/b.html", href: "/x.html#y", problem: "no anchor" as const },
    ]
    expect(describeBroken(broken)).toBe(
      [
        "11 broken links:",
        "/a.html, /b.html, /c.html and 2 other pages → each of these 2 links:",
        "    /gone.html: no such page",
        "    /also-gone.html: no such page",
        "/b.html → /x.html#y: no anchor",
      ].join("\n"),
    )
  })

  it("takes `<a name>` for an anchor, and no `data-id`", () => {
    expect([...idsOf(`<h2 id="a" data-id="b">A</h2><a name="c"></a><div aria-describedby="d" id='e'></div>`)].sort()).toEqual(["a", "c", "e"])
  })

  it("resolves paths as a static host does", () => {
    expect(resolveFile(distDir, "/")).toBe(join(distDir, "index.html"))
    expect(resolveFile(distDir, "/../package.json")).toBe(undefined)
    expect(resolveFile(distDir, "/no-such-page")).toBe(undefined)
  })
})

describe("the built site", () => {
  it("is served: pages, a path without .html, assets; a missing page is a 404", async () => {
    expect(pages).toContain("/index.html")
    expect(pages).toContain("/start/next.html")
    counts["pages"] = pages.length
    const status = async (path: string) => (await fetch(`${server.origin}${path}`)).status
    expect(await status("/")).toBe(200)
    expect(await status("/start/next")).toBe(200)
    expect(await status("/no-such-page.html")).toBe(404)
    const home = await fetch(`${server.origin}/`)
    expect(home.headers.get("content-type")).toMatch(/^text\/html/)
    const script = /<script type="module" src="([^"]+\.js)"/.exec(await home.text())?.[1]
    expect(script, "the home page loads a script").toBeDefined()
    const asset = await fetch(`${server.origin}${script}`)
    expect([asset.status, asset.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"])
  })

  it("is what `npm run docs` serves: the README's command answers the pages on PORT", async () => {
    const port = await freePort()
    // The README's own command, in its own process group so that npm's child goes with it.
    const child = spawn("npm", ["run", "docs"], { cwd: root, env: { ...process.env, PORT: String(port) }, detached: true, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve))
    try {
      const page = async (path: string) => {
        const response = await fetch(`http://localhost:${port}${path}`)
        return { status: response.status, title: /<title>([^<]*)/.exec(await response.text())?.[1] }
      }
      const served = await expect
        .poll(() => page("/").then((answer) => answer.status, () => 0), { timeout: 4 * minutes, interval: 500 })
        .toBe(200)
        .then(() => true, () => false)
      expect(served, `npm run docs serves the site; it printed:\n${output}`).toBe(true)
      expect(await page("/start/express.html")).toEqual({ status: 200, title: "Sesame with Express, step by step | Sesame" })
      expect(output).toContain(`http://localhost:${port}/`)
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, "SIGTERM")
      await exited
    }
  }, 5 * minutes)

  it("has no broken link: every internal link of every page leads to a page, and to its anchor", async () => {
    const report = await timed("links", () => checkLinks(pages, server.origin, httpLoader(server.origin)))
    counts["internal links"] = report.internal
    counts["anchors"] = report.anchors
    counts["external links (not followed)"] = report.external
    counts["distinct paths loaded"] = report.loaded
    expect(report.pages).toBeGreaterThan(0)
    expect(report.broken.length, describeBroken(report.broken)).toBe(0)
  }, 10 * minutes)
})

describe("in Chromium", () => {
  it("every page but the API reference, and 25 API pages, pass axe in the light scheme (two tabs at a time)", async () => {
    const guides = pages.filter((page) => !page.startsWith(apiPrefix))
    const sample = apiSample(pages, 25)
    expect(sample).toHaveLength(25)
    const context = await newContext("light")
    const failures = await timed("axe (light)", () => axeEach(context, [...guides, ...sample]))
    await context.close()
    counts["pages checked by axe"] = (counts["pages checked by axe"] ?? 0) + guides.length + sample.length
    expect(failures.length, describeAxeFailures(failures)).toBe(0)
  }, 20 * minutes)

  it("pages pass axe in the dark scheme too, which VitePress follows from the system preference", async () => {
    const api = apiSample(pages, 25)[0]!
    const paths = ["/index.html", "/start/next.html", "/reference/providers.html", api]
    const context = await newContext("dark")
    const failures = await timed("axe (dark)", async () => {
      const tab = await context.newPage()
      for (const path of paths) {
        await open(tab, path)
        expect(await tab.evaluate(() => document.documentElement.classList.contains("dark")), `${path} is dark`).toBe(true)
      }
      await tab.close()
      return axeEach(context, paths)
    })
    counts["pages checked by axe"] = (counts["pages checked by axe"] ?? 0) + paths.length
    const tab = await context.newPage()
    await open(tab, "/index.html")
    await saveScreenshot(tab, suite, "home-dark")
    await open(tab, "/start/next.html")
    await saveScreenshot(tab, suite, "guide-next-dark")
    await context.close()
    expect(failures.length, describeAxeFailures(failures)).toBe(0)
  }, 10 * minutes)

  it("keeps screenshots of the home page, a guide and an API page", async () => {
    const api = pages.find((page) => page.startsWith(`${apiPrefix}core/`) && page.includes("/interfaces/")) ?? apiSample(pages, 25)[0]!
    const context = await newContext("light")
    const tab = await context.newPage()
    for (const [path, name] of [
      ["/index.html", "home"],
      ["/start/next.html", "guide-next"],
      [api, "api-reference"],
    ] as const) {
      await open(tab, path)
      await expect.poll(() => tab.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(false)
      await saveScreenshot(tab, suite, name)
    }
    await context.close()
  }, 5 * minutes)

  describe("search", () => {
    const results = ".VPLocalSearchBox .results a.result"

    /** The results the search box shows now: their pages (URL paths) and full links. */
    const shown = (tab: Page) =>
      tab.$$eval(results, (links) =>
        links.map((link) => {
          const url = new URL((link as HTMLAnchorElement).href)
          return { page: url.pathname, link: url.pathname + url.hash }
        }),
      )

    /** Waits (up to 15 s) until the results offer `page`; fails listing what they offer instead. */
    async function expectOffered(tab: Page, term: string, page: string): Promise<void> {
      let last: { page: string; link: string }[] = []
      await expect
        .poll(async () => (last = await shown(tab)).some((result) => result.page === page), { timeout: 15_000 })
        .toBe(true)
        .catch(() => undefined)
      expect(last.map((result) => result.page), `the results for "${term}" offer ${page}; they are:\n${last.map((r) => r.link).join("\n")}`).toContain(page)
    }

    it("finds each term's page, from the search button", async () => {
      await timed("search", async () => {
        const context = await newContext("light")
        const tab = await context.newPage()
        await open(tab, "/index.html")
        await tab.getByRole("button", { name: "Search" }).first().click()
        const input = tab.locator("#localsearch-input")
        await expect.poll(() => input.isVisible()).toBe(true)
        for (const { term, page } of searchTerms) {
          expect(pages, `${page} exists`).toContain(page)
          await input.fill("")
          await expect.poll(() => tab.locator(results).count()).toBe(0)
          await input.fill(term)
          await expectOffered(tab, term, page)
        }
        await saveScreenshot(tab, suite, "search-results")
        await context.close()
      })
    }, 2 * minutes)

    it("works with the keyboard alone: `/` and Ctrl+K open it, ArrowDown chooses a result, Enter goes there", async () => {
      await timed("search", async () => {
        const context = await newContext("light")
        const tab = await context.newPage()
        await open(tab, "/index.html")
        const focusedId = () => tab.evaluate(() => document.activeElement?.id ?? "")

        await tab.keyboard.press("/")
        await expect.poll(focusedId, { message: "`/` opens the search with its input focused" }).toBe("localsearch-input")
        await tab.keyboard.press("Escape")
        await expect.poll(() => tab.locator("#localsearch-input").count(), { message: "Escape closes the search" }).toBe(0)

        await tab.keyboard.press("Control+k")
        await expect.poll(focusedId, { message: "Ctrl+K opens the search with its input focused" }).toBe("localsearch-input")
        const { term, page } = searchTerms[0]!
        await tab.keyboard.press("Control+a")
        await tab.keyboard.type(term)
        await expectOffered(tab, term, page)
        await tab.keyboard.press("ArrowDown")
        const chosen = await tab.$eval('.VPLocalSearchBox li[aria-selected="true"] a.result', (link) => {
          const url = new URL((link as HTMLAnchorElement).href)
          return url.pathname + url.hash
        })
        await tab.keyboard.press("Enter")
        await expect
          .poll(() => {
            const url = new URL(tab.url())
            return url.pathname + url.hash
          }, { message: "Enter goes to the chosen result" })
          .toBe(chosen)
        await expect.poll(() => tab.locator("#localsearch-input").count(), { message: "the search closes" }).toBe(0)
        await context.close()
      })
    }, 2 * minutes)
  })

  it("is usable with the keyboard: the first Tab reaches “Skip to content”, then Tab reaches every visible sidebar link", async () => {
    await timed("keyboard", async () => {
      const context = await newContext("light")
      const tab = await context.newPage()
      await open(tab, "/start/next.html")
      const focused = () =>
        tab.evaluate(() => {
          const element = document.activeElement
          return {
            skip: element?.classList.contains("VPSkipLink") ?? false,
            text: element?.textContent?.trim() ?? "",
            inSidebar: Boolean(element?.closest(".VPSidebar")),
            href: element instanceof HTMLAnchorElement ? new URL(element.href).pathname : undefined,
            width: element?.getBoundingClientRect().width ?? 0,
          }
        })

      await tab.keyboard.press("Tab")
      const first = await focused()
      expect(first).toMatchObject({ skip: true, text: "Skip to content" })
      expect(first.width, "the skip link shows when focused").toBeGreaterThan(1)

      const visibleSidebarLinks = await tab.$$eval(".VPSidebar a[href]", (links) =>
        links.filter((link) => link.checkVisibility()).map((link) => new URL((link as HTMLAnchorElement).href).pathname),
      )
      expect(visibleSidebarLinks).toContain("/start/next.html")
      const reached = new Set<string>()
      let entered = false
      for (let presses = 0; presses < 300; presses++) {
        await tab.keyboard.press("Tab")
        const now = await focused()
        if (now.inSidebar) {
          entered = true
          if (now.href) reached.add(now.href)
        } else if (entered) break
      }
      expect(entered, "Tab reaches the sidebar").toBe(true)
      expect(visibleSidebarLinks.filter((link) => !reached.has(link)), "sidebar links Tab does not reach").toEqual([])
      await context.close()
    })
  }, 2 * minutes)
})
