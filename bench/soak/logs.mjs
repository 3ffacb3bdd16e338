/**
 * What an instance's stderr lines mean to the run: the one place that knows Sesame's log lines.
 *
 * Sesame prints `[sesame][error] …` for errors and `[sesame][warn] …` for visitors' mistakes and
 * warnings. A storage outage is expected to print one line when it begins
 * (`[sesame][error] StorageUnavailable: …`) and one when it ends (`[sesame][warn]
 * storage-available-again: …`), per instance: on a fault run those are not server errors (they
 * still count towards the lines logged during the outage, which are judged on their own).
 */

/** The lines of a storage outage's start and end (see packages/core/src/logger.ts). */
const outageLine = /\bStorageUnavailable\b|\bstorage-available-again\b/

/** Whether `line` is the expected line of a storage outage beginning or ending. */
export const isOutageLine = (line) => outageLine.test(line)

/**
 * The lines of `log` ({ at, line } entries) that are server errors: every non-blank line but
 * Sesame's warnings and, when `faultRun`, the outage's expected lines.
 */
export function serverErrorLines(log, { faultRun }) {
  return log
    .map((entry) => entry.line)
    .filter((line) => line.trim() && !line.startsWith("[sesame][warn]") && !(faultRun && isOutageLine(line)))
}

/** The non-blank lines of `log` printed from `from` to `to` (performance.now() times of the run). */
export const linesBetween = (log, from, to) => log.filter((entry) => entry.line.trim() && entry.at >= from && entry.at <= to).map((entry) => entry.line)
