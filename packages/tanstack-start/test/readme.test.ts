/**
 * The README's quick start is examples/tanstack-start, whose Chromium test runs it: each block the
 * README shows (`<!-- example: name (a file of examples/tanstack-start) -->`) must be, to the
 * character, the file of the example it names in its first line, so that the README never shows
 * code that was not run.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { readmeExample } from "@sesame/testing"

const readme = join(import.meta.dirname, "..", "README.md")
const example = join(import.meta.dirname, "..", "..", "..", "examples", "tanstack-start")

describe("the README's quick start", () => {
  for (const name of ["auth", "route", "start", "functions", "dashboard", "me"]) {
    it(`"${name}" is the example's file it names`, () => {
      const code = readmeExample(readme, name)
      const path = /^\/\/ (src\/[\w/$.-]+?\.tsx?)\b/.exec(code)?.[1]
      expect(path, `the "${name}" block's first line names no file`).toBeTruthy()
      expect(code).toBe(readFileSync(join(example, path!), "utf8"))
    })
  }
})
