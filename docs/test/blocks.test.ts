/**
 * Every code block of the documentation site (docs/**\/*.md, the pages of docs/scripts/paths.mjs)
 * is one a test stands behind, so that a reader who copies it gets code that works with the
 * packages as published. For the people who write the pages, and for their reviewers:
 *
 * - every fenced block is announced by a marker, `<!-- example: <name> (exercised by <test>, saved
 *   as <file>) -->`, whose test exists and names the page, or `<!-- example: <name> (not run:
 *   <reason>) -->`;
 * - every ts/tsx block compiles, strict, as a user's app compiles it (NodeNext, ES2022, react-jsx)
 *   against the built packages (dist), the blocks of a page side by side in one folder so that they
 *   import each other by their `saved as` names; each page is a program of its own. The framework
 *   guides are compiled by their own tests instead, with their framework's compiler, and the
 *   migration guide is run by its own (`compiledByTheirOwnTest` in ./blocks.ts), as are svelte and
 *   vue blocks: those blocks must say `exercised by`;
 * - every json block parses.
 *
 * Shell blocks are their named test's, or say why none runs them. The checks are the functions of
 * ./blocks.ts; the last `describe` feeds them a page that is wrong on purpose, to show they fail.
 * The packages must be built (`node scripts/build.mjs`): the blocks compile against dist.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { docPages, docsDir } from "../scripts/paths.mjs"
import {
  compiledByTheirOwnTest,
  compiledElsewhereProblems,
  jsonProblems,
  markerProblems,
  mentionsPage,
  parseBlocks,
  repoReader,
  typeCheck,
  type ParsedPage,
  type TypeCheckResult,
} from "./blocks.js"

const scratch = join(import.meta.dirname, ".scratch")
const read = repoReader()
const pages = docPages().map((page) => parseBlocks(page, readFileSync(join(docsDir, page), "utf8")))

/** A page of the self-check, from its lines, where ''' stands for a fence of three backticks. */
function selfCheckPage(name: string, lines: readonly string[]): ParsedPage {
  return parseBlocks(name, lines.join("\n").replaceAll("'''", "```"))
}

// The self-check's pages (the last describe): one that is wrong on purpose, and two compiled in one
// run, of which the first declares a global that must not reach the second.
const wrong = selfCheckPage("self-check/page.md", [
  "# A page of the self-check",
  "",
  "<!-- example: auth (exercised by docs/test/blocks.test.ts, saved as src/auth.ts) -->",
  "'''ts",
  'import { Auth, type AuthConfig } from "@sesame/core"',
  "",
  "export const config: AuthConfig = { secret: process.env.AUTH_SECRET, providers: [] }",
  "export const handler = (request: Request): Promise<Response> => Auth(request, config)",
  "'''",
  "",
  "<!-- example: route (exercised by docs/test/blocks.test.ts, saved as src/route.ts) -->",
  "'''ts",
  'import { handler } from "./auth.js"',
  "",
  "export const GET = handler",
  "'''",
  "",
  "'''sh", // line 18: no marker
  "npm run dev",
  "'''",
  "",
  "<!-- example: ghost (exercised by docs/test/no-such.test.ts) -->",
  "'''sh",
  "npm test",
  "'''",
  "",
  "<!-- example: elsewhere (exercised by examples/newcomer/test/next.test.ts) -->",
  "'''sh",
  "npm test",
  "'''",
  "",
  "<!-- example: terse (not run: why) -->",
  "'''sh",
  "npm test",
  "'''",
  "",
  "<!-- example: wrong-type (exercised by docs/test/blocks.test.ts) -->",
  "'''ts",
  "export {}",
  'const n: number = "x"', // line 40
  "'''",
  "",
  "<!-- example: wrong-call (exercised by docs/test/blocks.test.ts) -->",
  "'''ts",
  'import { Auth } from "@sesame/core"',
  "",
  "export const response = await Auth(42)", // line 47: the package's types, not any
  "'''",
  "",
  "<!-- example: settings (exercised by docs/test/blocks.test.ts) -->",
  "'''json",
  '{ "a": 1, }',
  "'''",
  "",
  "- In a list item:",
  "",
  "  <!-- example: listed (exercised by docs/test/blocks.test.ts, saved as src/listed.tsx) -->",
  "  '''tsx",
  '  import { handler } from "./auth.js"',
  "",
  "  export const Page = () => <a href={handler.name}>Sign in</a>",
  "  '''",
])
// Two pages compiled in one run: what one declares for every file must not reach the other.
const declares = selfCheckPage("self-check/declares.md", [
  "<!-- example: globals (exercised by docs/test/blocks.test.ts) -->",
  "'''ts",
  "declare global {",
  "  var selfCheckGlobal: string",
  "}",
  "export const own: string = globalThis.selfCheckGlobal",
  "'''",
])
const uses = selfCheckPage("self-check/uses.md", [
  "<!-- example: reader (exercised by docs/test/blocks.test.ts) -->",
  "'''ts",
  "export const other: string = globalThis.selfCheckGlobal", // line 3
  "'''",
])

let compiled: TypeCheckResult
let selfChecked: TypeCheckResult
beforeAll(async () => {
  // Two tsc runs, side by side: the site's pages, and the self-check's in a folder of their own.
  ;[compiled, selfChecked] = await Promise.all([
    typeCheck(
      pages.filter((p) => !compiledByTheirOwnTest.has(p.page)),
      scratch,
    ),
    typeCheck([wrong, declares, uses], join(scratch, ".self-check")),
  ])
})

it("finds the site's pages", () => {
  expect(pages.map((p) => p.page)).toContain("index.md")
})

for (const parsed of pages) {
  const { page } = parsed
  describe(`docs/${page}`, () => {
    it("announces every code block with a marker: a test that exists and names the page, or why none runs it", () => {
      expect(markerProblems(parsed, read)).toEqual([])
    })
    const ownTest = compiledByTheirOwnTest.get(page)
    if (ownTest) {
      it(`leaves its blocks to ${ownTest}, which compiles them as the framework's own build does: each says "exercised by" a test that exists`, () => {
        expect(compiledElsewhereProblems(parsed, read)).toEqual([])
      })
    } else {
      it("has ts/tsx blocks that type-check against the built packages, as a user's app compiles them", () => {
        expect(compiled.byPage.get(page) ?? []).toEqual([])
      })
      it('has svelte/vue blocks that say "exercised by" the test that compiles them', () => {
        expect(compiledElsewhereProblems(parsed, read)).toEqual([])
      })
    }
    it("has json blocks that parse", () => {
      expect(jsonProblems(parsed)).toEqual([])
    })
  })
}

it("gets no compiler error that is no page's", () => {
  expect(compiled.unattributed).toEqual([])
})

describe("the checker, fed docs/self-check/page.md, a page wrong on purpose", () => {
  it("reads the blocks, their languages, markers and indentation", () => {
    expect(wrong.blocks.map((b) => [b.line, b.lang, b.marker?.name])).toEqual([
      [4, "ts", "auth"],
      [12, "ts", "route"],
      [18, "sh", undefined],
      [23, "sh", "ghost"],
      [28, "sh", "elsewhere"],
      [33, "sh", "terse"],
      [38, "ts", "wrong-type"],
      [44, "ts", "wrong-call"],
      [51, "json", "settings"],
      [58, "tsx", "listed"],
    ])
    expect(wrong.blocks.at(-1)!.code).toBe('import { handler } from "./auth.js"\n\nexport const Page = () => <a href={handler.name}>Sign in</a>')
    expect(wrong.blocks[0]!.marker).toMatchObject({ exercisedBy: "docs/test/blocks.test.ts", savedAs: "src/auth.ts" })
    expect(wrong.problems).toEqual([])
  })

  it("reports the block without a marker, the test that does not exist, the one that does not name the page, the reason that is none", () => {
    const problems = markerProblems(wrong, read)
    expect(problems).toHaveLength(4)
    expect(problems[0]).toMatch(/^docs\/self-check\/page\.md:18: a code block without a marker\. Write, on the line before it, "<!-- example: /)
    expect(problems[1]).toMatch(/^docs\/self-check\/page\.md:23: block ghost is "exercised by docs\/test\/no-such\.test\.ts", which is not a file of the repository/)
    expect(problems[2]).toMatch(/^docs\/self-check\/page\.md:28: block elsewhere is "exercised by examples\/newcomer\/test\/next\.test\.ts", which does not mention this page/)
    expect(problems[3]).toMatch(/^docs\/self-check\/page\.md:33: block terse is "not run: why": say why/)
  })

  it("reports the type errors by page, block and line, and none in the blocks that are right", () => {
    const errors = selfChecked.byPage.get("self-check/page.md")!
    expect(errors).toHaveLength(2)
    expect(errors[0]).toMatch(/^docs\/self-check\/page\.md:40: block wrong-type \(wrong-type\.ts:2:7\): error TS2322: Type 'string' is not assignable to type 'number'/)
    expect(errors[1]).toMatch(/^docs\/self-check\/page\.md:47: block wrong-call \(wrong-call\.ts:3:\d+\): error TS\d+: /)
    expect(selfChecked.unattributed).toEqual([])
  })

  it("compiles each page alone: what one declares for every file does not reach another", () => {
    expect(selfChecked.byPage.get("self-check/declares.md")).toEqual([])
    expect(selfChecked.byPage.get("self-check/uses.md")).toEqual([expect.stringMatching(/^docs\/self-check\/uses\.md:3: block reader \(reader\.ts:1:\d+\): error TS\d+: /)])
  })

  it("reports the json block that does not parse", () => {
    expect(jsonProblems(wrong)).toEqual([expect.stringMatching(/^docs\/self-check\/page\.md:51: json block settings is not JSON: /)])
  })

  it('reports a block of a page compiled by its own test that does not say "exercised by" (a command may say why none runs it), and a svelte block anywhere that does not', () => {
    const guide = selfCheckPage("self-check/guide.md", [
      "<!-- example: auth (not run: the test writes the files it makes) -->",
      "'''ts",
      "export {}",
      "'''",
      "",
      "<!-- example: create-app (not run: the test writes the files it makes) -->",
      "'''sh",
      "npm create app",
      "'''",
    ])
    expect(compiledElsewhereProblems(guide, read, new Map([["self-check/guide.md", "docs/test/blocks.test.ts"]]))).toEqual([
      expect.stringMatching(/^docs\/self-check\/guide\.md:2: block auth does not say "exercised by <test>"/),
    ])
    const svelte = selfCheckPage("self-check/svelte.md", ["<!-- example: layout (not run: a component no test here compiles) -->", "'''svelte", "<slot />", "'''"])
    expect(compiledElsewhereProblems(svelte, read)).toEqual([expect.stringMatching(/^docs\/self-check\/svelte\.md:2: block layout does not say "exercised by <test>"/)])
  })

  it("reports a marker that does not parse and one with no block after it", () => {
    const broken = selfCheckPage("self-check/broken.md", ["<!-- example: no parentheses -->", "'''sh", "npm test", "'''", "", "<!-- example: alone (not run: nothing follows this marker) -->", ""])
    expect(broken.problems).toEqual([
      expect.stringMatching(/^docs\/self-check\/broken\.md:1: a marker that does not read as/),
      expect.stringMatching(/^docs\/self-check\/broken\.md:6: a marker with no code block after it/),
    ])
  })

  it("takes a page as named by its path or by the segments of a join()", () => {
    expect(mentionsPage('const guide = "docs/start/next.md"', "start/next.md")).toBe(true)
    expect(mentionsPage('join(repositoryRoot, "docs", "start", "express.md")', "start/express.md")).toBe(true)
    expect(mentionsPage("join(docsDir, 'start', 'express.md')", "start/express.md")).toBe(true)
    expect(mentionsPage('join(root, "docs", "architecture.md")', "architecture.md")).toBe(true)
    expect(mentionsPage('const pages = { plugin: "features/plugins.md" }', "features/plugins.md")).toBe(true)
    expect(mentionsPage('join(root, "architecture.md")', "architecture.md")).toBe(false)
    expect(mentionsPage('"not-features/plugins.md"', "features/plugins.md")).toBe(false)
    expect(mentionsPage('join(root, "docs", "start", "hono.md")', "start/express.md")).toBe(false)
  })
})
