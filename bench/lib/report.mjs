/**
 * From the rounds' reports to the tables: each case's median, min and max, its ratios to its floor
 * and to the other libraries, how many answers were checked, and whether it failed; then the goals.
 */
import { contenders } from "./cases.mjs"
import { spread } from "./stats.mjs"

const scenarioNames = {
  jwt: "JWT",
  "jwt-cold": "JWT, a token not read before",
  "jwt-browser": "JWT, browser's cookies",
  "jwt-revocable": "JWT, `session.revocation` on (cache 30 s)",
  "jwt-revocable-0": "JWT, `session.revocation` on (cache 0: the store at every read)",
  "jwt-limited": "JWT, rate limits on",
  database: "database (in memory)",
  "no-cookie": "no cookie",
}

/** Sesame's in-process floor for each scenario. */
const floorOf = {
  jwt: "inproc/floor/envelope+decrypt",
  "jwt-cold": "inproc/floor/envelope+decrypt",
  "jwt-browser": "inproc/floor/envelope+decrypt-browser",
  "jwt-revocable": "inproc/floor/envelope+decrypt",
  "jwt-revocable-0": "inproc/floor/envelope+decrypt",
  "jwt-limited": "inproc/floor/envelope+decrypt",
  database: "inproc/floor/envelope+adapter-read",
  "no-cookie": "inproc/floor/envelope",
}

/** Why one round of a case failed, or undefined. */
function roundProblem(result) {
  if (result.error) return result.error
  if (result.unavailable) return undefined
  if (result.wrong > 0) return `${result.wrong} of ${result.checked} answers wrong, first: ${result.first}`
  if (!(result.checked > 0)) return "no answer checked"
  const transport = [
    result.errors > 0 && `${result.errors} connection errors`,
    result.timeouts > 0 && `${result.timeouts} timeouts`,
    result.non2xx > 0 && `${result.non2xx} non-2xx`,
  ].filter(Boolean)
  return transport.length > 0 ? transport.join(", ") : undefined
}

/** One row per case: its rounds summed up. */
export function summarize(cases, results) {
  const rows = new Map()
  for (const c of cases) {
    const rounds = results.get(c.id) ?? []
    const unavailable = rounds.find((r) => r.unavailable)?.unavailable
    const problems = rounds.map(roundProblem).filter(Boolean)
    const good = rounds.filter((r) => !r.error && !r.unavailable)
    const values = good.map((r) => (c.kind === "http" ? r.rps : r.us))
    rows.set(c.id, {
      ...c,
      unavailable,
      problems,
      failed: problems.length > 0,
      stats: problems.length === 0 ? spread(values) : undefined,
      checked: good.reduce((sum, r) => sum + r.checked, 0),
      wrong: good.reduce((sum, r) => sum + r.wrong, 0),
      setsCookie: good.some((r) => r.setsCookie),
      loadCpu: spread(good.map((r) => r.loadCpu).filter((x) => x !== undefined))?.median,
      headerBytes: good[0]?.headerBytes,
    })
  }
  return rows
}

const count = (n) => Math.round(n).toLocaleString("en-US")
const micro = (us) => (us >= 1000 ? count(us) : us.toFixed(us >= 100 ? 0 : 1))
const times = (x) => `${x >= 10 ? x.toFixed(0) : x.toFixed(2)}×`

function label(row) {
  const name = row.contender === "floor" ? `floor: ${row.scenario}` : `${contenders[row.contender].name}, ${scenarioNames[row.scenario]}`
  return row.scenario.endsWith("-browser") && row.headerBytes ? `${name} (${count(row.headerBytes)} B cookie header)` : name
}

function result(row) {
  if (row.unavailable) return `n/a (${row.unavailable})`
  if (row.failed) return `**FAIL**: ${row.problems[0].split("\n")[0].replaceAll("|", "\\|")}`
  return "ok"
}

function median(rows, id) {
  return rows.get(id)?.stats?.median
}

function cells(row, format) {
  if (!row.stats) return ["", ""]
  const { median: m, min, max } = row.stats
  return [format(m), `${format(min)}–${format(max)}`]
}

function inProcessRatio(rows, row) {
  const m = row.stats?.median
  if (m === undefined || row.contender === "floor") return ""
  if (row.contender === "sesame" || row.contender === "sesame-before") {
    const floor = median(rows, floorOf[row.scenario])
    return floor ? `${times(m / floor)} its floor (${floorOf[row.scenario].split("/")[2]})` : ""
  }
  const sesame = median(rows, `inproc/sesame/${row.scenario}`)
  return sesame ? `${times(m / sesame)} Sesame's time` : ""
}

function table(header, lines) {
  return [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`, ...lines.map((l) => `| ${l.join(" | ")} |`)].join("\n")
}

export function inProcessTable(rows) {
  const list = [...rows.values()].filter((r) => r.kind === "inproc")
  if (list.length === 0) return undefined
  return table(
    ["`GET session`, in-process", "what it does", "µs/request", "min–max", "ratio", "Set-Cookie", "answers checked", "result"],
    list.map((r) => [label(r), r.does, ...cells(r, micro), inProcessRatio(rows, r), r.stats ? (r.setsCookie ? "yes" : "no") : "", r.checked ? count(r.checked) : "", result(r)]),
  )
}

export function httpTable(rows) {
  const list = [...rows.values()].filter((r) => r.kind === "http")
  if (list.length === 0) return undefined
  const bridge = median(rows, "http/floor/bridge")
  return table(
    ["`GET session` over HTTP", "what it does", "req/s", "min–max", "vs bridge floor", "vs @auth/core", "Set-Cookie", "load generator CPU", "answers checked", "result"],
    list.map((r) => {
      const m = r.stats?.median
      const authjs = r.contender === "floor" || r.contender === "authjs" ? undefined : median(rows, `http/authjs/${r.scenario}`)
      return [
        label(r),
        r.does,
        ...cells(r, count),
        m !== undefined && bridge ? `${Math.round((m / bridge) * 100)} %` : "",
        m !== undefined && authjs ? times(m / authjs) : "",
        r.stats ? (r.setsCookie ? "yes" : "no") : "",
        r.stats && r.loadCpu !== undefined ? `${Math.round(r.loadCpu * 100)} %` : "",
        r.checked ? count(r.checked) : "",
        result(r),
      ]
    }),
  )
}

/** Sesame from the `--before` checkout beside this one, where both ran. */
export function beforeAfterTable(rows) {
  const lines = []
  for (const row of rows.values()) {
    if (!row.contender.endsWith("-before")) continue
    const after = rows.get(row.id.replace("-before/", "/"))
    const b = row.stats?.median
    const a = after?.stats?.median
    if (b === undefined || a === undefined) continue
    const http = row.kind === "http"
    const format = http ? count : micro
    // Lower is better in µs, higher in req/s: the change is said so that negative is always worse.
    const change = http ? a / b - 1 : b / a - 1
    lines.push([`${label(after)}${http ? " over HTTP" : ""}`, `${format(b)} ${http ? "req/s" : "µs"}`, `${format(a)} ${http ? "req/s" : "µs"}`, `${change >= 0 ? "+" : ""}${(change * 100).toFixed(0)} % speed`])
  }
  return lines.length ? table(["case", "before", "after", "change"], lines) : undefined
}

/** The issue's goals, each with its measured ratio. */
export function goals(rows) {
  const ratio = (a, b) => (median(rows, a) !== undefined && median(rows, b) !== undefined ? median(rows, a) / median(rows, b) : undefined)
  const list = [
    ["JWT in-process within 1.5× its floor (envelope + decrypt)", ratio("inproc/sesame/jwt", "inproc/floor/envelope+decrypt"), (x) => x <= 1.5, times],
    ["JWT in-process, a token not read before, within 1.5× its floor (envelope + decrypt)", ratio("inproc/sesame/jwt-cold", "inproc/floor/envelope+decrypt"), (x) => x <= 1.5, times],
    ["JWT in-process ≥ 20× faster than @auth/core", ratio("inproc/authjs/jwt", "inproc/sesame/jwt"), (x) => x >= 20, times],
    ["database in-process within 1.5× of envelope + one adapter read", ratio("inproc/sesame/database", "inproc/floor/envelope+adapter-read"), (x) => x <= 1.5, times],
    ["over HTTP, `Auth()` behind the bridge ≥ 70 % of the bridge floor, JWT", ratio("http/sesame/jwt", "http/floor/bridge"), (x) => x >= 0.7, (x) => `${Math.round(x * 100)} %`],
    ["over HTTP, `Auth()` behind the bridge ≥ 70 % of the bridge floor, database", ratio("http/sesame/database", "http/floor/bridge"), (x) => x >= 0.7, (x) => `${Math.round(x * 100)} %`],
    ["over HTTP, `toNodeHandler` ≥ 2× the bridge floor, JWT", ratio("http/sesame-node/jwt", "http/floor/bridge"), (x) => x >= 2, times],
  ]
  return list.map(([goal, x, met, format]) => `- ${goal}: ${x === undefined ? "not measured" : `${format(x)}, ${met(x) ? "met" : "**not met**"}`}`).join("\n")
}
