/**
 * Screenshots kept as test artefacts under `test-artifacts/screenshots/<suite>/` at the repository
 * root (git-ignored), so a reviewer can look at what the browser tests saw.
 *
 * @module
 */
import { mkdir } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Page } from "playwright-core"

/** `test-artifacts/` at the repository root (this file is `packages/testing/{src,dist}/…`). */
export const artifactsDir = fileURLToPath(new URL("../../../test-artifacts/", import.meta.url))

function fileName(part: string): string {
  return part.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "unnamed"
}

/** Saves a full-page PNG of `page` as `test-artifacts/screenshots/<suite>/<name>.png`; returns its path. */
export async function saveScreenshot(page: Page, suite: string, name: string): Promise<string> {
  const dir = join(artifactsDir, "screenshots", fileName(suite))
  await mkdir(dir, { recursive: true })
  const path = join(dir, `${fileName(name)}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}
