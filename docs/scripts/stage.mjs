/**
 * Stages the site's pages in docs/build/src: docs/**\/*.md as they are, each package's README as
 * `packages/<name>.md` and each example's as `examples/<name>.md`. The files are written for
 * GitHub, with links between files of the repository; here each link to a staged file becomes a
 * link to its page, and a link to any other file of the repository (a source file, a test) keeps
 * its text and names the file, since the site does not serve it.
 *
 * @module
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { dirname, join, posix } from "node:path"
import { docPages, readmes, root, sourceDir } from "./paths.mjs"

/** The staged page of a file of the repository (relative to it), or undefined when the site has none. */
function pageOf(file) {
  if (file === "README.md") return "index.md"
  if (file.startsWith("docs/") && file.endsWith(".md")) return file.slice("docs/".length)
  const readme = /^(packages|examples)\/([^/]+)\/README\.md$/.exec(file)
  if (readme) return `${readme[1]}/${readme[2]}.md`
  return undefined
}

/** Every staged page, by the repository file it comes from. */
function stagedFiles() {
  return [...docPages().map((page) => `docs/${page}`), ...readmes()]
}

/** A link target relative to the repository: a folder stands for its README. */
function repositoryPath(from, target) {
  const path = posix.normalize(posix.join(posix.dirname(from), target))
  const absolute = join(root, path)
  if (existsSync(absolute) && statSync(absolute).isDirectory()) return posix.join(path.replace(/\/$/, ""), "README.md")
  return path
}

/** The link `[text](target)` of the file `from` (relative to the repository), as the site writes it. */
function rewriteLink(from, text, target) {
  if (/^([a-z][a-z+.-]*:|#|\/)/i.test(target)) return `[${text}](${target})`
  const [path, anchor] = target.split("#", 2)
  const file = repositoryPath(from, path)
  const page = pageOf(file)
  if (page && existsSync(join(root, file))) return `[${text}](/${page}${anchor ? `#${anchor}` : ""})`
  const plain = text.replace(/`/g, "")
  return plain.includes(file) || file.endsWith(plain) ? `\`${file}\`` : `${text} (\`${file}\`)`
}

/** Rewrites the links of a page outside its code blocks: inline `[text](target)` links. */
export function rewriteLinks(from, markdown) {
  const parts = markdown.split(/(^[ \t]*```[\s\S]*?^[ \t]*```$)/m)
  return parts
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/(?<!!)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\)/g, (_, text, target) => rewriteLink(from, text, target))))
    .join("")
}

/**
 * The page without its HTML comments on lines of their own: the `<!-- example: … -->` markers that
 * tie each code block to its test (docs/test/blocks.test.ts) are for the repository, not readers.
 */
function withoutComments(markdown) {
  return markdown.replace(/^[ \t]*<!--[\s\S]*?-->[ \t]*\n/gm, "")
}

/** Writes every page into docs/build/src; returns how many. */
export function stagePages() {
  const files = stagedFiles()
  for (const file of files) {
    const target = join(sourceDir, pageOf(file))
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, rewriteLinks(file, withoutComments(readFileSync(join(root, file), "utf8"))))
  }
  return files.length
}
