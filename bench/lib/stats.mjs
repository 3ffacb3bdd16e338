/** Median, min and max of a case's rounds. */
export function spread(values) {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  const median = sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  return { median, min: sorted[0], max: sorted[sorted.length - 1], rounds: sorted.length }
}
