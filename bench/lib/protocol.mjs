/**
 * How a case process talks to bench/run.mjs: one line on stdout, `@@bench <kind> <json>`, so that
 * whatever a library logs on stdout cannot be mistaken for it.
 */
export function send(kind, value) {
  return new Promise((resolve) => process.stdout.write(`\n@@bench ${kind} ${JSON.stringify(value)}\n`, resolve))
}

/** The JSON of the first `@@bench <kind>` line in `text`, or undefined. */
export function receive(text, kind) {
  const prefix = `@@bench ${kind} `
  const line = text.split("\n").find((l) => l.startsWith(prefix))
  return line === undefined ? undefined : JSON.parse(line.slice(prefix.length))
}

/** The case's spec, passed as the process's one argument. */
export function spec() {
  return JSON.parse(process.argv[2])
}
