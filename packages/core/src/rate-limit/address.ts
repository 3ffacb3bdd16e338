/**
 * The part of a client's address its limits are counted under: an IPv4 address as it is, an IPv6
 * address cut to its network prefix (a client is handed a whole `/64` or more, and could rotate
 * through it), anything else (a malformed header of a trusted proxy) bounded in length.
 *
 * @module
 */

const ipv4 = /^\d{1,3}(\.\d{1,3}){3}$/

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  const text = address.split("%")[0]!
  if (!/^[0-9a-f:.]+$/i.test(text) || !text.includes(":")) return null
  const halves = text.split("::")
  if (halves.length > 2) return null
  const parse = (part: string): number[] | null => {
    if (part === "") return []
    const groups: number[] = []
    for (const piece of part.split(":")) {
      if (ipv4.test(piece)) {
        const [a, b, c, d] = piece.split(".").map(Number) as [number, number, number, number]
        groups.push((a << 8) | b, (c << 8) | d)
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) groups.push(parseInt(piece, 16))
      else return null
    }
    return groups
  }
  const head = parse(halves[0]!)
  const tail = halves.length === 2 ? parse(halves[1]!) : []
  if (!head || !tail) return null
  if (halves.length === 1) return head.length === 8 ? head : null
  const missing = 8 - head.length - tail.length
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : null
}

/**
 * `address` without a port, which some proxies add (`203.0.113.7:51234`, `[2001:db8::1]:443`):
 * a client would otherwise be a new one at every connection.
 */
function withoutPort(address: string): string {
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(address)
  if (v4) return v4[1]!
  const v6 = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(address)
  return v6 ? v6[1]! : address
}

/** The key `address` is counted under, with IPv6 addresses cut to their first `prefix` bits. */
export function addressKey(given: string, prefix: number): string {
  const address = withoutPort(given.trim())
  if (ipv4.test(address)) return address
  const groups = ipv6Groups(address)
  if (!groups) return `other:${address.slice(0, 64)}`
  // An IPv4 client however its IPv4-mapped address is written (`0:0:0:0:0:ffff:c633:6407`).
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".")
  }
  const kept = groups.map((group, index) => {
    const bits = Math.min(16, Math.max(0, prefix - index * 16))
    return bits === 0 ? 0 : group & (0xffff << (16 - bits)) & 0xffff
  })
  return `${kept.map((group) => group.toString(16)).join(":")}/${prefix}`
}
