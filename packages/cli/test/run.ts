/**
 * Runs the real `sesame` command (packages/cli/bin/sesame.js, which needs the packages built:
 * `npm test` builds first) and collects what it printed.
 */
import { execFile } from "node:child_process"
import { join } from "node:path"

export const bin = join(import.meta.dirname, "..", "bin", "sesame.js")
export const root = join(import.meta.dirname, "..", "..", "..")

export interface Run {
  code: number
  stdout: string
  stderr: string
}

export function run(command: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: { ...process.env, NO_COLOR: "1" }, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0
      resolve({ code, stdout, stderr })
    })
  })
}

/** `sesame …args` in `cwd`. */
export const sesame = (args: string[], cwd = root) => run(process.execPath, [bin, ...args], cwd)
