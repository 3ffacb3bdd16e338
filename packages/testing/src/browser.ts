/**
 * A real browser for tests: Debian's Chromium (`apt-get install chromium`; `npm test` installs it
 * when missing) driven by playwright-core, which downloads nothing.
 *
 * Every launch gets a fresh profile: Playwright passes Chromium a new temporary `--user-data-dir`
 * and deletes it on close (it refuses a `--user-data-dir` argument of ours for `launch()`), so no
 * cookie, cache or permission leaks from one run into the next.
 *
 * @module
 */
import { existsSync } from "node:fs"
import { chromium, type Browser, type LaunchOptions } from "playwright-core"

export const chromiumPath = "/usr/bin/chromium"

/** Flags for a headless Chromium in a container: no sandbox (root), no GPU, no background traffic. */
export const chromiumArgs: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
]

/** Launches Chromium. Share one per test file (a launch takes about half a second) and close it in `afterAll`. */
export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium is missing at ${chromiumPath}. Install it with: apt-get install -y chromium (npm test does this when run as root).`)
  }
  return chromium.launch({
    ...options,
    executablePath: chromiumPath,
    headless: true,
    args: [...chromiumArgs, ...(options.args ?? [])],
  })
}
