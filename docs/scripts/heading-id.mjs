/**
 * The id of a heading on the site: GitHub's, so that a link to `page.md#anchor` works on the site
 * and in the repository alike; but `_` becomes `-`, as in the anchors of TypeDoc's pages
 * (`auth_time` → `#auth-time`). No heading of the hand-written pages has an underscore.
 * VitePress makes the ids with it (.vitepress/config.mjs), and the API reference's links are
 * checked against it (api.mjs).
 *
 * @module
 */
export function headingId(text) {
  return text.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "").replace(/[ _]/g, "-")
}
