import { randomBytes } from "node:crypto"
import { createSocket } from "node:dgram"
import { Resolver } from "node:dns/promises"
import { connect } from "node:net"
import { RECURSION_AVAILABLE, RECURSION_DESIRED, TRUNCATED_RESPONSE, decode, encode, streamEncode, type Packet } from "dns-packet"
import { afterEach, describe, expect, it } from "vitest"
import { startDevDns, type DevDns } from "@sesame/dev-dns"

let dns: DevDns | undefined

afterEach(async () => {
  await dns?.close()
  dns = undefined
})

/** Node's own resolver (c-ares), as the organizations module builds it, pointed at the server. */
function resolverFor(server: DevDns): Resolver {
  const resolver = new Resolver({ timeout: 1000, tries: 1 })
  resolver.setServers([server.server])
  return resolver
}

const query = (name: string, type: "TXT" | "A" = "TXT", id = 4242): Packet => ({ type: "query", id, flags: RECURSION_DESIRED, questions: [{ type, name, class: "IN" }] })

/** Sends raw bytes over UDP and resolves with the reply, or undefined when none came within `wait` ms. */
function overUdp(server: DevDns, message: Buffer, wait = 300): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const socket = createSocket("udp4")
    const timer = setTimeout(() => {
      socket.close()
      resolve(undefined)
    }, wait)
    socket.on("error", reject)
    socket.on("message", (reply) => {
      clearTimeout(timer)
      socket.close()
      resolve(reply)
    })
    socket.send(message, server.port, server.host)
  })
}

/** Writes raw bytes over one TCP connection and resolves with everything received until the server closes it or `wait` ms pass. */
function overTcp(server: DevDns, bytes: Buffer, wait = 300): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const socket = connect(server.port, server.host, () => socket.write(bytes))
    const timer = setTimeout(() => socket.destroy(), wait)
    socket.on("data", (chunk) => chunks.push(chunk))
    socket.on("error", reject)
    socket.on("close", () => {
      clearTimeout(timer)
      resolve(Buffer.concat(chunks))
    })
  })
}

/** The RCODE of a raw reply (dns-packet's typings leave it out). */
const rcodeOf = (reply: Buffer) => reply.readUInt16BE(2) & 0xf

describe("dev DNS server", () => {
  it("answers a published TXT record to Node's resolver, authoritatively, with TTL 0", async () => {
    dns = await startDevDns({ records: [{ name: "_sesame-verification.example.com", type: "TXT", value: "token-1" }] })
    expect(dns.host).toBe("127.0.0.1")
    expect(dns.server).toBe(`127.0.0.1:${dns.port}`)
    expect(await resolverFor(dns).resolveTxt("_sesame-verification.example.com")).toEqual([["token-1"]])
    const reply = decode((await overUdp(dns, encode(query("_sesame-verification.example.com"))))!)
    expect(reply).toMatchObject({ id: 4242, type: "response", flag_aa: true, flag_ra: false, flag_rd: true })
    expect(reply.answers).toEqual([expect.objectContaining({ type: "TXT", class: "IN", ttl: 0, data: [Buffer.from("token-1")] })])
  })

  it("compares names case-insensitively and without a trailing dot, and keeps them lower case", async () => {
    dns = await startDevDns()
    dns.publish({ name: "_Sesame-Verification.Example.COM.", type: "TXT", value: "MixedCase" })
    expect(dns.records()).toEqual([{ name: "_sesame-verification.example.com", type: "TXT", value: "MixedCase" }])
    const resolver = resolverFor(dns)
    expect(await resolver.resolveTxt("_SESAME-verification.example.com")).toEqual([["MixedCase"]])
    expect(await resolver.resolveTxt("_sesame-verification.example.com.")).toEqual([["MixedCase"]])
    // The answer spells the name as the question did (resolvers randomizing its case check it).
    const reply = decode((await overUdp(dns, encode(query("_sesame-VERIFICATION.example.com"))))!)
    expect(reply.answers?.[0]?.name).toBe("_sesame-VERIFICATION.example.com")
  })

  it("answers NXDOMAIN (ENOTFOUND) for an unknown name and NOERROR without answers (ENODATA) for another type", async () => {
    dns = await startDevDns({ records: [{ name: "_sesame-verification.example.com", type: "TXT", value: "t" }] })
    const resolver = resolverFor(dns)
    await expect(resolver.resolveTxt("unknown.example.org")).rejects.toMatchObject({ code: "ENOTFOUND" })
    await expect(resolver.resolve4("_sesame-verification.example.com")).rejects.toMatchObject({ code: "ENODATA" })
    // A name above a published one exists (an empty non-terminal), as in a real zone.
    await expect(resolver.resolveTxt("example.com")).rejects.toMatchObject({ code: "ENODATA" })
    expect(rcodeOf((await overUdp(dns, encode(query("unknown.example.org"))))!)).toBe(3)
  })

  it("sees a republished or removed record at once", async () => {
    dns = await startDevDns()
    const resolver = resolverFor(dns)
    const name = "_sesame-verification.acme.test"
    dns.publish({ name, type: "TXT", value: "first" })
    expect(await resolver.resolveTxt(name)).toEqual([["first"]])
    dns.remove(name)
    await expect(resolver.resolveTxt(name)).rejects.toMatchObject({ code: "ENOTFOUND" })
    dns.publish({ name, type: "TXT", value: "second" })
    expect(await resolver.resolveTxt(name)).toEqual([["second"]])
    dns.remove(name, "not-published")
    dns.remove(name.toUpperCase(), "second")
    await expect(resolver.resolveTxt(name)).rejects.toMatchObject({ code: "ENOTFOUND" })
    expect(dns.records()).toEqual([])
  })

  it("serves several values per name, each once, and lists records sorted by name", async () => {
    dns = await startDevDns()
    dns.publish({ name: "b.example.com", type: "TXT", value: "v=spf1 -all" })
    dns.publish({ name: "a.example.com", type: "TXT", value: "one" })
    dns.publish({ name: "a.example.com", type: "TXT", value: "two" })
    dns.publish({ name: "A.example.com", type: "TXT", value: "one" })
    dns.publish({ name: "a.example.com", type: "TXT", value: "" })
    expect(dns.records()).toEqual([
      { name: "a.example.com", type: "TXT", value: "one" },
      { name: "a.example.com", type: "TXT", value: "two" },
      { name: "a.example.com", type: "TXT", value: "" },
      { name: "b.example.com", type: "TXT", value: "v=spf1 -all" },
    ])
    const values = await resolverFor(dns).resolveTxt("a.example.com")
    expect(values.map((chunks) => chunks.join("")).sort()).toEqual(["", "one", "two"])
    dns.remove("a.example.com", "two")
    expect((await resolverFor(dns).resolveTxt("a.example.com")).map((chunks) => chunks.join("")).sort()).toEqual(["", "one"])
  })

  it("answers over TCP with the 2-byte length prefix, several queries on one connection", async () => {
    dns = await startDevDns({ records: [{ name: "_sesame-verification.example.com", type: "TXT", value: "über-token" }] })
    const received = await overTcp(dns, Buffer.concat([streamEncode(query("_sesame-verification.example.com", "TXT", 1)), streamEncode(query("nope.example.com", "TXT", 2))]))
    const first = received.readUInt16BE(0)
    const reply = decode(received.subarray(2, 2 + first))
    expect(reply).toMatchObject({ id: 1, type: "response", flag_aa: true, flag_ra: false })
    expect(reply.flags! & RECURSION_AVAILABLE).toBe(0)
    expect(reply.answers).toEqual([expect.objectContaining({ type: "TXT", name: "_sesame-verification.example.com", ttl: 0, data: [Buffer.from("über-token")] })])
    const second = received.subarray(2 + first)
    expect(second.readUInt16BE(0)).toBe(second.length - 2)
    expect(decode(second.subarray(2)).id).toBe(2)
    expect(rcodeOf(second.subarray(2))).toBe(3)
  })

  it("sets TC on a UDP answer too big for it, and Node's resolver gets the whole answer over TCP", async () => {
    dns = await startDevDns()
    const values = Array.from({ length: 20 }, (_, i) => `${i}`.padStart(3, "0") + "x".repeat(200))
    for (const value of values) dns.publish({ name: "big.example.com", type: "TXT", value })
    const reply = decode((await overUdp(dns, encode(query("big.example.com"))))!)
    expect(reply.flags! & TRUNCATED_RESPONSE).toBe(TRUNCATED_RESPONSE)
    expect(reply.answers).toEqual([])
    const answers = await resolverFor(dns).resolveTxt("big.example.com")
    expect(answers.map((chunks) => chunks.join("")).sort()).toEqual(values)
  })

  it("answers FORMERR and NOTIMP where it can, drops the rest, and survives random bytes over UDP and TCP", async () => {
    dns = await startDevDns({ records: [{ name: "still.example.com", type: "TXT", value: "here" }] })
    // A header and then nonsense: FORMERR, with the query's id.
    const broken = Buffer.concat([encode(query("x.example.com", "TXT", 7)).subarray(0, 12), Buffer.from([0xff, 0xff, 0xff])])
    const formerr = (await overUdp(dns, broken))!
    expect(formerr.readUInt16BE(0)).toBe(7)
    expect(rcodeOf(formerr)).toBe(1)
    // Two questions: FORMERR too.
    expect(rcodeOf((await overUdp(dns, encode({ id: 8, questions: [query("a.example.com").questions![0]!, query("b.example.com").questions![0]!] })))!)).toBe(1)
    // Opcode STATUS (2): NOTIMP, opcode echoed.
    const status = encode(query("still.example.com", "TXT", 9))
    status.writeUInt16BE(status.readUInt16BE(2) | (2 << 11), 2)
    const notimp = (await overUdp(dns, status))!
    expect(rcodeOf(notimp)).toBe(4)
    expect((notimp.readUInt16BE(2) >> 11) & 0xf).toBe(2)
    // Shorter than a header, or a response: no reply at all.
    expect(await overUdp(dns, Buffer.from([1, 2, 3]))).toBeUndefined()
    expect(await overUdp(dns, encode({ ...query("still.example.com"), type: "response" }))).toBeUndefined()
    // A label holding a dot cannot be echoed faithfully: FORMERR rather than a reply the client would drop.
    const dotted = Buffer.concat([encode(query("a", "TXT", 10)).subarray(0, 12), Buffer.from([3, 0x61, 0x2e, 0x62, 0, 0, 16, 0, 1])])
    expect(rcodeOf((await overUdp(dns, dotted))!)).toBe(1)

    for (let i = 0; i < 300; i++) await overUdp(dns, randomBytes(1 + (i % 80)), 0)
    for (let i = 0; i < 30; i++) {
      const body = randomBytes(1 + ((i * 37) % 200))
      const framed = Buffer.concat([Buffer.from([body.length >> 8, body.length & 0xff]), body])
      await overTcp(dns, i % 3 === 0 ? randomBytes(40) : framed, 50)
    }
    // A TCP message with no header to answer: the server closes the connection.
    const closed = await overTcp(dns, Buffer.from([0, 3, 1, 2, 3]), 2000)
    expect(closed.length).toBe(0)

    expect(await resolverFor(dns).resolveTxt("still.example.com")).toEqual([["here"]])
  })

  it("refuses names and values DNS cannot carry with a TypeError", async () => {
    dns = await startDevDns()
    const bad: unknown[] = [
      { name: "", type: "TXT", value: "x" },
      { name: ".", type: "TXT", value: "x" },
      { name: "a..b", type: "TXT", value: "x" },
      { name: "has space.example.com", type: "TXT", value: "x" },
      { name: "ünïcode.example.com", type: "TXT", value: "x" },
      { name: `${"a".repeat(64)}.example.com`, type: "TXT", value: "x" },
      { name: Array.from({ length: 64 }, () => "abc").join("."), type: "TXT", value: "x" },
      { name: "ok.example.com", type: "TXT", value: "x".repeat(256) },
      { name: "ok.example.com", type: "TXT", value: "é".repeat(128) },
      { name: "ok.example.com", type: "A", value: "127.0.0.1" },
      { name: 42, type: "TXT", value: "x" },
      { name: "ok.example.com", type: "TXT", value: 42 },
      null,
    ]
    for (const record of bad) expect(() => dns!.publish(record as never), JSON.stringify(record)).toThrow(TypeError)
    expect(() => dns!.remove("bad name")).toThrow(TypeError)
    expect(dns.records()).toEqual([])
    // At the limits: a 63-character label, 253 characters, 255 bytes.
    const longest = [..."abc"].map((c) => c.repeat(63)).join(".") + "." + "d".repeat(61)
    expect(longest).toHaveLength(253)
    dns.publish({ name: `${"a".repeat(63)}.example.com`, type: "TXT", value: "x".repeat(255) })
    dns.publish({ name: longest, type: "TXT", value: "ok" })
    expect(await resolverFor(dns).resolveTxt(longest)).toEqual([["ok"]])
    await expect(startDevDns({ records: [{ name: "bad name", type: "TXT", value: "x" }] })).rejects.toThrow(TypeError)
  })

  it("close() stops both listeners, drops TCP connections and frees the port", async () => {
    const first = await startDevDns()
    const { port } = first
    const idle = connect(port, first.host)
    const idleClosed = new Promise<void>((resolve) => idle.on("close", () => resolve()))
    idle.on("error", () => {})
    await new Promise((resolve) => idle.once("connect", resolve))
    await first.close()
    await idleClosed
    await first.close() // twice is harmless
    await expect(resolverFor(first).resolveTxt("any.example.com")).rejects.toMatchObject({ code: expect.stringMatching(/ECONNREFUSED|ETIMEOUT/) })
    dns = await startDevDns({ port, records: [{ name: "again.example.com", type: "TXT", value: "back" }] })
    expect(dns.port).toBe(port)
    expect(await resolverFor(dns).resolveTxt("again.example.com")).toEqual([["back"]])
  })

  it("fails to start on a port another server holds", async () => {
    dns = await startDevDns()
    await expect(startDevDns({ port: dns.port })).rejects.toMatchObject({ code: "EADDRINUSE" })
  })
})
