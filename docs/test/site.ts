/**
 * What docs/test/site.test.ts needs besides a browser: a static server for the built site
 * (docs/build/dist), the list of its pages, the sample of API pages it opens in Chromium, and the
 * link checker. The checker is a function of the pages, an origin and a loader, so that the test's
 * self-check can feed it an in-memory site that is wrong on purpose.
 *
 * @module
 */
import { readdirSync, statSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { extname, join, posix, relative } from "node:path"
import { serve, type TestServer } from "@sesame/testing"

// ---------------------------------------------------------------------------------------------
// The static server

/** The content types the site needs; anything else is `application/octet-stream`. */
export const contentTypes: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/**
 * The file of `dir` that the URL path `pathname` names, as a static host finds it: a path ending
 * in `/` is that folder's index.html (`/` is the home page), a path without an extension may leave
 * out `.html`; undefined when there is none (or the path leaves `dir`).
 */
export function resolveFile(dir: string, pathname: string): string | undefined {
  let path: string
  try {
    path = decodeURIComponent(pathname)
  } catch {
    return undefined
  }
  if (path.includes("\0") || !path.startsWith("/")) return undefined
  if (path.endsWith("/")) path += "index.html"
  const file = join(dir, posix.normalize(path))
  const inside = relative(dir, file)
  if (inside === "" || inside.startsWith("..")) return undefined
  if (isFile(file)) return file
  if (extname(file) === "" && isFile(`${file}.html`)) return `${file}.html`
  return undefined
}

/**
 * Serves the files of `dir` on 127.0.0.1 (GET and HEAD; 404 for anything else that is not a file),
 * through the repository's test server (`serve` of `@sesame/testing`).
 */
export function serveStatic(dir: string): Promise<TestServer> {
  return serve(async (request) => {
    const { pathname } = new URL(request.url)
    const file = request.method === "GET" || request.method === "HEAD" ? resolveFile(dir, pathname) : undefined
    if (!file) return new Response(`404: no ${pathname}\n`, { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } })
    const headers = { "content-type": contentTypes[extname(file)] ?? "application/octet-stream", "cache-control": "no-cache" }
    return new Response(request.method === "HEAD" ? null : await readFile(file), { headers })
  })
}

// ---------------------------------------------------------------------------------------------
// The pages

/** Every page of the built site in `dir`, as URL paths (`/start/next.html`), sorted; 404.html is not a page. */
export function htmlPages(dir: string): string[] {
  const found: string[] = []
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith(".html")) found.push(`/${relative(dir, path).split(/[\\/]/).join("/")}`)
    }
  }
  walk(dir)
  return found.filter((page) => page !== "/404.html").sort()
}

export const apiPrefix = "/reference/api/"

/** `count` items of `items`, evenly spread from the first: `items[floor(i × length / count)]`. */
export function spread<T>(items: readonly T[], count: number): T[] {
  if (count >= items.length) return [...items]
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]!)
}

/**
 * A deterministic sample of `count` API reference pages over every package: each package's first
 * page (sorted: its index), then pages evenly spread over the rest of the sorted list.
 */
export function apiSample(pages: readonly string[], count: number): string[] {
  const api = pages.filter((page) => page.startsWith(apiPrefix)).sort()
  const firstOfPackage = new Map<string, string>()
  for (const page of api) {
    const name = page.slice(apiPrefix.length).split("/")[0]!
    if (!firstOfPackage.has(name)) firstOfPackage.set(name, page)
  }
  const firsts = spread([...firstOfPackage.values()], count)
  const rest = api.filter((page) => !firsts.includes(page))
  return [...firsts, ...spread(rest, count - firsts.length)].sort()
}

// ---------------------------------------------------------------------------------------------
// Links and anchors

const named: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" }

/** `text` with its character references decoded (`&amp;`, `&#39;`, `&#x2F;`, …). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return named[ref.toLowerCase()] ?? whole
  })
}

/** The markup without its scripts, styles and templates (which hold no link a reader follows). */
function markup(html: string): string {
  return html.replace(/<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, "")
}

/** The `href` of every `<a>` of the page (its content, nav bar, sidebar and footer), decoded, in order. */
export function linksOf(html: string): string[] {
  const links: string[] = []
  for (const match of markup(html).matchAll(/<a\b[^>]*?\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi)) {
    links.push(decodeEntities(match[1] ?? match[2] ?? match[3] ?? ""))
  }
  return links
}

/**
 * The anchors of the page, decoded: every element's `id` (VitePress puts one on each heading) and
 * every `<a name>`, which a browser scrolls to as well.
 */
export function idsOf(html: string): Set<string> {
  const ids = new Set<string>()
  const page = markup(html)
  for (const match of page.matchAll(/<[a-z][^\s>]*\s[^>]*?(?<=\s)id\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    ids.add(decodeEntities(match[1] ?? match[2] ?? ""))
  }
  for (const match of page.matchAll(/<a\s[^>]*?(?<=\s)name\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    ids.add(decodeEntities(match[1] ?? match[2] ?? ""))
  }
  return ids
}

/** What a loader answers for a URL path: its status, and its text when it is an HTML page. */
export interface LoadedPage {
  status: number
  html?: string
}

export type PageLoader = (pathname: string) => Promise<LoadedPage>

/** Loads pages over HTTP from `origin`; only HTML bodies are read. */
export function httpLoader(origin: string): PageLoader {
  return async (pathname) => {
    const response = await fetch(new URL(pathname, origin))
    if (!(response.headers.get("content-type") ?? "").startsWith("text/html") || response.status !== 200) {
      await response.body?.cancel()
      return { status: response.status }
    }
    return { status: response.status, html: await response.text() }
  }
}

export type LinkProblem = "no such page" | "no anchor"

export interface BrokenLink {
  /** The page the link is on (a URL path). */
  page: string
  /** The link as written. */
  href: string
  problem: LinkProblem
}

export interface LinkReport {
  /** Pages whose links were checked. */
  pages: number
  /** Links followed: to this site (`internal`) and elsewhere, not followed (`external`). */
  internal: number
  external: number
  /** Distinct URL paths loaded, each once. */
  loaded: number
  /** Internal links with a `#fragment` whose anchor was looked for. */
  anchors: number
  broken: BrokenLink[]
}

interface Target {
  status: number
  links?: string[]
  ids?: Set<string>
}

/** The fragment of a URL's hash, as the id it names. */
function fragmentOf(hash: string): string {
  const raw = hash.slice(1)
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}

/**
 * Checks every `<a href>` of each of `pages` (URL paths on `origin`): each link to `origin`
 * (relative or absolute) must lead to a page that loads with 200 and, when it has a `#fragment`, to
 * an element of that page with that id. Links to other origins (other hosts, `mailto:`, the
 * reader's own app on `localhost:3000`) are counted, not followed. Each path is loaded once (a path
 * ending in `/` is its index.html); `concurrency` loads run at a time.
 */
export async function checkLinks(pages: readonly string[], origin: string, load: PageLoader, concurrency = 16): Promise<LinkReport> {
  const cache = new Map<string, Promise<Target>>()
  const get = (pathname: string): Promise<Target> => {
    const key = pathname.endsWith("/") ? `${pathname}index.html` : pathname
    let target = cache.get(key)
    if (!target) {
      target = load(key).then(({ status, html }) => (html === undefined ? { status } : { status, links: linksOf(html), ids: idsOf(html) }))
      cache.set(key, target)
    }
    return target
  }
  const report: LinkReport = { pages: pages.length, internal: 0, external: 0, loaded: 0, anchors: 0, broken: [] }
  const seen = new Set<string>()
  const broken = (page: string, href: string, problem: LinkProblem) => {
    const key = `${page}\0${href}`
    if (seen.has(key)) return
    seen.add(key)
    report.broken.push({ page, href, problem })
  }

  const checkPage = async (page: string) => {
    const own = await get(page)
    if (own.status !== 200) return broken(page, page, "no such page")
    for (const href of own.links ?? []) {
      let url: URL
      try {
        url = new URL(href, new URL(page, origin))
      } catch {
        broken(page, href, "no such page")
        continue
      }
      if (url.origin !== origin) {
        report.external++
        continue
      }
      report.internal++
      const target = await get(url.pathname)
      if (target.status !== 200) {
        broken(page, href, "no such page")
        continue
      }
      if (url.hash.length > 1 && target.ids) {
        report.anchors++
        if (!target.ids.has(fragmentOf(url.hash))) broken(page, href, "no anchor")
      }
    }
  }

  let next = 0
  const worker = async () => {
    while (next < pages.length) await checkPage(pages[next++]!)
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, pages.length)) }, worker))
  report.loaded = cache.size
  report.broken.sort((a, b) => compare(a.page, b.page) || compare(a.href, b.href))
  return report
}

/** Code-unit order, the same in every locale. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * Every broken link, as `<page> → <href>: no such page` (or `no anchor`), in one message. A link
 * broken alike on many pages is one line naming the first `shown` pages and how many others; the
 * links broken on the same many pages (the sidebar's, on every page) are listed under one such line.
 */
export function describeBroken(broken: readonly BrokenLink[], shown = 3): string {
  const byLink = new Map<string, { link: string; pages: string[] }>()
  for (const { page, href, problem } of broken) {
    const link = `${href}: ${problem}`
    const group = byLink.get(link) ?? { link, pages: [] }
    group.pages.push(page)
    byLink.set(link, group)
  }
  const byPages = new Map<string, { pages: string[]; links: string[] }>()
  for (const { link, pages } of byLink.values()) {
    const key = pages.join("\0")
    const group = byPages.get(key) ?? { pages, links: [] }
    group.links.push(link)
    byPages.set(key, group)
  }
  const lines = [...byPages.values()]
    .sort((a, b) => compare(a.pages[0]!, b.pages[0]!) || b.pages.length - a.pages.length || compare(a.links[0]!, b.links[0]!))
    .flatMap(({ pages, links }) => {
      const others = pages.length - shown
      const where = others > 1 ? `${pages.slice(0, shown).join(", ")} and ${others} other pages` : pages.join(", ")
      if (links.length === 1 || others <= 1) return links.map((link) => `${where} → ${link}`)
      return [`${where} → each of these ${links.length} links:`, ...links.map((link) => `    ${link}`)]
    })
  return `${broken.length} broken link${broken.length === 1 ? "" : "s"}:\n${lines.join("\n")}`
}

// ---------------------------------------------------------------------------------------------

/** Runs `task` on every item, `workers` at a time, each worker with its own resource (a browser tab). */
export async function inParallel<R, T>(items: readonly T[], resources: readonly R[], task: (resource: R, item: T) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(
    resources.map(async (resource) => {
      while (next < items.length) await task(resource, items[next++]!)
    }),
  )
}
