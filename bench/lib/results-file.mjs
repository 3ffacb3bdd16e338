/**
 * bench/RESULTS.md keeps every recorded run, newest first: a new run's section goes above the
 * first `## ` section, under the file's introduction, and nothing already there changes.
 */
export function prependSection(file, section) {
  const first = file.search(/^## /m)
  const body = `${section.trimEnd()}\n\n`
  return first === -1 ? `${file.trimEnd()}\n\n${body}` : `${file.slice(0, first)}${body}${file.slice(first)}`
}
