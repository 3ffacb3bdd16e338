/**
 * `@sesame/dev-dns`: a real DNS server on 127.0.0.1 that answers the TXT records published to it.
 *
 * It plays the DNS provider's console for development and the demo app: a person (or a test)
 * publishes the TXT record an organization's domain verification asks for, and the app's resolver
 * (`node:dns/promises` `Resolver`, pointed at `server` through the organizations module's
 * `domains.resolver.servers`) reads it over UDP, or TCP, exactly as it would read a real zone. So a
 * machine with only Node.js and npm can verify a domain end to end, which a mocked lookup cannot
 * show (the query, the answer's wire format and the resolver's error codes are all real).
 *
 * It is authoritative for every name and recursive for none, listens only on the loopback
 * interface and keeps its records in memory: for development and tests, never for real DNS.
 *
 * @example
 * ```ts
 * const dns = await startDevDns()
 * dns.publish({ name: "_sesame-verification.example.com", type: "TXT", value: "token" })
 * const resolver = new Resolver()
 * resolver.setServers([dns.server])
 * await resolver.resolveTxt("_sesame-verification.example.com") // [["token"]]
 * await dns.close()
 * ```
 *
 * @module
 */
import { createSocket, type Socket as UdpSocket } from "node:dgram"
import { createServer, type AddressInfo, type Server, type Socket } from "node:net"
import { AUTHORITATIVE_ANSWER, CHECKING_DISABLED, RECURSION_DESIRED, TRUNCATED_RESPONSE, decode, encode, type Answer, type DecodedPacket, type OptAnswer, type Packet, type Question } from "dns-packet"

/** One published record. Only TXT: what domain verification reads. */
export interface DevDnsRecord {
  /** The owner name (`_sesame-verification.example.com`); case-insensitive, a trailing dot is ignored. */
  name: string
  type: "TXT"
  /** The text, at most 255 bytes in UTF-8: one TXT character-string. */
  value: string
}

export interface DevDnsOptions {
  /** The port for both UDP and TCP; 0 (the default) picks one free for both. */
  port?: number
  /** Records published before the server starts answering. */
  records?: DevDnsRecord[]
}

export interface DevDns {
  readonly host: "127.0.0.1"
  readonly port: number
  /** `"127.0.0.1:<port>"`, what `Resolver#setServers` and the organizations module's `domains.resolver.servers` take. */
  readonly server: string
  /**
   * Publishes a TXT record (several values per name allowed; the same value twice is kept once).
   * Seen by the next query. Throws a `TypeError` on a name or value DNS cannot carry.
   */
  publish(record: DevDnsRecord): void
  /** Removes one record (name+value), or every record of a name when value is omitted. */
  remove(name: string, value?: string): void
  /** What is published, sorted by name (names lower case, without a trailing dot; values in publish order). */
  records(): DevDnsRecord[]
  /** Stops both listeners and drops open TCP connections. */
  close(): Promise<void>
}

const host = "127.0.0.1"

// RFC 1035 §4.1.1 (and RFC 6891 §9 for BADVERS, which spans the OPT record's extended RCODE).
const rcode = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const
const QR = 1 << 15
/** What a resolver without EDNS may receive over UDP (RFC 1035 §4.2.1). */
const classicUdpLimit = 512
/** The UDP payload size advertised back: the DNS Flag Day 2020 value, safe from fragmentation. */
const advertisedUdpLimit = 1232
/** An idle TCP connection is closed after this long, so a client that never finishes a message cannot keep one open. */
const tcpIdleTimeout = 10_000

const label = /^[a-z0-9_-]{1,63}$/

/** ASCII-only lower case: DNS compares names case-insensitively in ASCII alone (RFC 4343), so `K` (U+212A) must not match `k`. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (s) => s.toLowerCase())
}

/** A published name, checked and normalized (lower case, no trailing dot). */
function checkedName(name: unknown): string {
  if (typeof name !== "string") throw new TypeError("dev-dns: a record name must be a string.")
  const normalized = asciiLower(name.endsWith(".") ? name.slice(0, -1) : name)
  if (normalized.length === 0 || normalized.length > 253 || !normalized.split(".").every((l) => label.test(l))) {
    throw new TypeError(`dev-dns: ${JSON.stringify(name)} is not a domain name (labels of 1 to 63 letters, digits, hyphens or underscores; 253 characters at most).`)
  }
  return normalized
}

function checkedValue(value: unknown): string {
  if (typeof value !== "string") throw new TypeError("dev-dns: a TXT value must be a string.")
  // One TXT character-string carries at most 255 bytes (RFC 1035 §3.3); longer values would have to
  // be split into several strings, which verification tokens never need.
  if (Buffer.byteLength(value) > 255) throw new TypeError("dev-dns: a TXT value may be 255 bytes long at most.")
  return value
}

function checkedRecord(record: unknown): DevDnsRecord {
  if (record === null || typeof record !== "object") throw new TypeError("dev-dns: a record must be an object { name, type, value }.")
  const { name, type, value } = record as Record<string, unknown>
  if (type !== "TXT") throw new TypeError(`dev-dns: only TXT records are served, not ${JSON.stringify(type)}.`)
  return { name: checkedName(name), type: "TXT", value: checkedValue(value) }
}

/** The header fields a reply needs, read from the raw bytes: dns-packet's typings leave out opcode and RCODE. */
function headerOf(message: Buffer): { id: number; qr: boolean; opcode: number; flags: number } | undefined {
  if (message.length < 12) return undefined
  const flags = message.readUInt16BE(2)
  return { id: message.readUInt16BE(0), qr: (flags & QR) !== 0, opcode: (flags >> 11) & 0xf, flags }
}

/**
 * Encodes a reply: the opcode, RD and CD echoed from the query, RA off (it never recurses), the
 * RCODE, and the AA bit on answers (NOERROR, NXDOMAIN): the server is the authority for every name.
 */
function reply(query: { id: number; opcode: number; flags: number }, code: number, rest: Omit<Packet, "type" | "id" | "flags"> = {}, extraFlags = 0): Buffer {
  const authoritative = code === rcode.NOERROR || code === rcode.NXDOMAIN ? AUTHORITATIVE_ANSWER : 0
  const flags = (query.opcode << 11) | (query.flags & (RECURSION_DESIRED | CHECKING_DISABLED)) | authoritative | extraFlags | (code & 0xf)
  return encode({ type: "response", id: query.id, flags, ...rest })
}

/**
 * Whether dns-packet re-encodes the question as the query spelled it. It decodes labels as UTF-8
 * joined by dots, so a label holding a dot or bytes that are not UTF-8 (or an unknown class) would
 * come back different, and a resolver drops a reply whose question is not its own.
 */
function questionRoundTrips(message: Buffer, question: Question): boolean {
  const encoded = encode({ questions: [question] }).subarray(12)
  return message.subarray(12, 12 + encoded.length).equals(encoded)
}

/** The published records, and the answers they give. */
class Zone {
  readonly #values = new Map<string, string[]>()

  publish(record: DevDnsRecord): void {
    const values = this.#values.get(record.name) ?? []
    if (!values.includes(record.value)) values.push(record.value)
    this.#values.set(record.name, values)
  }

  remove(name: string, value?: string): void {
    if (value === undefined) {
      this.#values.delete(name)
      return
    }
    const values = this.#values.get(name)?.filter((v) => v !== value)
    if (values?.length) this.#values.set(name, values)
    else this.#values.delete(name)
  }

  records(): DevDnsRecord[] {
    return [...this.#values.keys()].sort().flatMap((name) => this.#values.get(name)!.map((value) => ({ name, type: "TXT" as const, value })))
  }

  /**
   * The TXT values at `name`, `[]` for a name that exists without any (an ancestor of a published
   * name, an "empty non-terminal": RFC 8020 has NXDOMAIN mean nothing exists below a name either),
   * or undefined for a name that does not exist.
   */
  lookup(name: string): string[] | undefined {
    const values = this.#values.get(name)
    if (values) return values
    const suffix = name === "" ? "" : `.${name}`
    for (const published of this.#values.keys()) if (published.endsWith(suffix)) return []
    return undefined
  }
}

/**
 * The reply to one DNS message, or undefined when it gets none (a response, or fewer bytes than a
 * header). The transport sets the size limit: 512 bytes over UDP without EDNS, and 65535 over TCP.
 */
function answer(zone: Zone, message: Buffer, transport: "udp" | "tcp"): Buffer | undefined {
  const header = headerOf(message)
  // Never answer a response: two servers pointed at each other would otherwise loop.
  if (!header || header.qr) return undefined
  if (header.opcode !== 0) return reply(header, rcode.NOTIMP)
  let packet: DecodedPacket
  try {
    packet = decode(message)
  } catch {
    return reply(header, rcode.FORMERR)
  }
  const [question] = packet.questions ?? []
  // RFC 9619: a query has exactly one question.
  if (packet.questions?.length !== 1 || !question || !questionRoundTrips(message, question)) return reply(header, rcode.FORMERR)

  const opts = (packet.additionals ?? []).filter((a): a is OptAnswer => a.type === "OPT")
  if (opts.length > 1) return reply(header, rcode.FORMERR)
  const opt = opts[0]
  const optReply: OptAnswer[] = opt ? [{ type: "OPT", name: ".", udpPayloadSize: advertisedUdpLimit, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] }] : []
  // RFC 6891 §6.1.3: only EDNS version 0 exists; BADVERS (16) is extended RCODE 1 with RCODE 0.
  if (opt && opt.ednsVersion !== 0) return reply(header, rcode.NOERROR, { questions: [question], additionals: [{ ...optReply[0]!, extendedRcode: 1 }] })

  const qclass: string = question.class ?? "IN"
  // Every record here is class IN; CHAOS queries (version.bind) and the like are not this server's.
  if (qclass !== "IN" && qclass !== "ANY") return reply(header, rcode.REFUSED, { questions: [question], additionals: optReply })

  const values = zone.lookup(question.name === "." ? "" : asciiLower(question.name))
  if (values === undefined) return reply(header, rcode.NXDOMAIN, { questions: [question], additionals: optReply })
  const qtype: string = question.type
  // The answers carry the name as the question spelled it: resolvers that randomize its case (DNS 0x20) check it.
  // TTL 0: nothing caches them, so a record republished or removed is seen by the very next query.
  const answers: Answer[] = qtype === "TXT" || qtype === "ANY" ? values.map((value) => ({ type: "TXT", name: question.name, class: "IN", ttl: 0, data: [Buffer.from(value)] })) : []
  const full = reply(header, rcode.NOERROR, { questions: [question], answers, additionals: optReply })
  // Over UDP: the smaller of the client's EDNS size and the one advertised back (RFC 6891 §6.2.5), never under 512.
  const limit = transport === "tcp" ? 0xffff : opt ? Math.min(Math.max(classicUdpLimit, opt.udpPayloadSize), advertisedUdpLimit) : classicUdpLimit
  if (full.length <= limit) return full
  // Too big for UDP: the TC bit sends the resolver over to TCP (RFC 7766). Too big even for TCP
  // (hundreds of values at one name): a server failure rather than a partial answer.
  if (transport === "tcp") return reply(header, rcode.SERVFAIL, { questions: [question], additionals: optReply })
  return reply(header, rcode.NOERROR, { questions: [question], additionals: optReply }, TRUNCATED_RESPONSE)
}

/** The reply to `message`, or undefined; never throws, so that no query can bring the process down. */
function safeAnswer(zone: Zone, message: Buffer, transport: "udp" | "tcp"): Buffer | undefined {
  try {
    return answer(zone, message, transport)
  } catch {
    const header = headerOf(message)
    if (!header || header.qr) return undefined
    try {
      return reply(header, rcode.SERVFAIL)
    } catch {
      return undefined
    }
  }
}

/** Serves one TCP connection: messages with a 2-byte length prefix (RFC 1035 §4.2.2), several per connection (RFC 7766). */
function serveTcp(zone: Zone, socket: Socket): void {
  let buffered: Buffer = Buffer.alloc(0)
  socket.setNoDelay(true)
  socket.setTimeout(tcpIdleTimeout, () => socket.destroy())
  socket.on("error", () => socket.destroy())
  socket.on("data", (chunk: Buffer) => {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk
    while (buffered.length >= 2) {
      const length = buffered.readUInt16BE(0)
      if (buffered.length < 2 + length) return
      const message = buffered.subarray(2, 2 + length)
      buffered = buffered.subarray(2 + length)
      const response = safeAnswer(zone, message, "tcp")
      if (!response) {
        // A message with no header to answer: the stream can no longer be trusted to be in step.
        socket.destroy()
        return
      }
      const prefix = Buffer.alloc(2)
      prefix.writeUInt16BE(response.length)
      socket.write(Buffer.concat([prefix, response]))
    }
  })
}

function bindUdp(port: number): Promise<UdpSocket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket("udp4")
    socket.once("error", reject)
    socket.bind(port, host, () => {
      socket.off("error", reject)
      resolve(socket)
    })
  })
}

function listenTcp(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, host, () => {
      server.off("error", reject)
      resolve()
    })
  })
}

/**
 * Binds UDP on `port` (0: a free one), then TCP on the same number, as resolvers expect both on one
 * port. With port 0 the number UDP got may be taken for TCP by another process: another pair is
 * tried a few times.
 */
async function listenBoth(tcp: Server, port: number): Promise<UdpSocket> {
  for (let attempt = 1; ; attempt++) {
    const udp = await bindUdp(port)
    try {
      await listenTcp(tcp, (udp.address() as AddressInfo).port)
      return udp
    } catch (error) {
      await closeUdp(udp)
      if (port !== 0 || attempt >= 5 || (error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error
    }
  }
}

function closeUdp(socket: UdpSocket): Promise<void> {
  return new Promise((resolve) => {
    try {
      socket.close(() => resolve())
    } catch {
      resolve() // already closed
    }
  })
}

/** Starts a DNS server on 127.0.0.1; resolves once it listens on both UDP and TCP. */
export async function startDevDns(options: DevDnsOptions = {}): Promise<DevDns> {
  const zone = new Zone()
  // Checked before anything listens, so that a bad record leaves no socket open behind the error.
  for (const record of options.records ?? []) zone.publish(checkedRecord(record))

  const connections = new Set<Socket>()
  const tcp = createServer((socket) => {
    connections.add(socket)
    socket.on("close", () => connections.delete(socket))
    serveTcp(zone, socket)
  })

  const udp = await listenBoth(tcp, options.port ?? 0)
  const port = (udp.address() as AddressInfo).port

  udp.on("error", () => {
    // A send to a client that went away, for one: the server keeps serving the others.
  })
  udp.on("message", (message, remote) => {
    const response = safeAnswer(zone, message, "udp")
    if (!response) return
    try {
      udp.send(response, remote.port, remote.address, () => {})
    } catch {
      // Closed in the meantime: the client will retry elsewhere.
    }
  })
  tcp.on("error", () => {})

  let closing: Promise<void> | undefined
  return {
    host,
    port,
    server: `${host}:${port}`,
    publish(record) {
      zone.publish(checkedRecord(record))
    },
    remove(name, value) {
      zone.remove(checkedName(name), value === undefined ? undefined : checkedValue(value))
    },
    records: () => zone.records(),
    close() {
      closing ??= Promise.all([
        closeUdp(udp),
        new Promise<void>((resolve) => {
          tcp.close(() => resolve())
          for (const socket of connections) socket.destroy()
        }),
      ]).then(() => undefined)
      return closing
    },
  }
}
