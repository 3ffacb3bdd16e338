/**
 * A TCP proxy between an app and its database, for fault injection: it forwards bytes both ways
 * until told to fail, then drops every connection at once and refuses new ones (the database is
 * "down") until `up()`. `failOn(text)` fails at a precise moment: when the app sends a statement
 * containing `text` (PostgreSQL's protocol carries the SQL as plain text).
 */
import { createServer, connect, type Server, type Socket } from "node:net"

export class TcpProxy {
  private server: Server
  private readonly sockets = new Set<Socket>()
  private trigger: { text: string; forward: boolean; fired: () => void } | null = null
  port = 0

  private constructor(private readonly target: { host: string; port: number }) {
    this.server = this.makeServer()
  }

  /** A proxy on a free loopback port, forwarding to `target`. */
  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target)
    await proxy.listen(0)
    return proxy
  }

  private makeServer(): Server {
    return createServer((client) => {
      const upstream = connect(this.target)
      for (const socket of [client, upstream]) {
        this.sockets.add(socket)
        socket.on("close", () => this.sockets.delete(socket))
        // A reset is what this proxy is for; it is no error of the test.
        socket.on("error", () => {})
      }
      client.on("data", (chunk: Buffer) => {
        const trigger = this.trigger
        if (trigger && chunk.includes(trigger.text)) {
          this.trigger = null
          const cut = () => {
            void this.down()
            trigger.fired()
          }
          if (trigger.forward) upstream.write(chunk, cut)
          else cut()
          return
        }
        upstream.write(chunk)
      })
      upstream.on("data", (chunk: Buffer) => client.write(chunk))
      client.on("close", () => upstream.destroy())
      upstream.on("close", () => client.destroy())
    })
  }

  private listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject)
      this.server.listen(port, "127.0.0.1", () => {
        this.server.off("error", reject)
        this.port = (this.server.address() as { port: number }).port
        resolve()
      })
    })
  }

  /**
   * Goes down when the app next sends `text`: with `forward`, after passing that statement on (the
   * database receives it, the app never hears back); without, before (it never arrives). Resolves
   * when the proxy went down.
   */
  failOn(text: string, { forward }: { forward: boolean }): Promise<void> {
    return new Promise((fired) => (this.trigger = { text, forward, fired }))
  }

  /** Drops every connection and stops accepting new ones. */
  async down(): Promise<void> {
    const closed = new Promise((resolve) => this.server.close(resolve))
    for (const socket of this.sockets) socket.destroy()
    await closed
  }

  /** Accepts connections again, on the same port (a no-op when it does). */
  async up(): Promise<void> {
    if (this.server.listening) return
    this.server = this.makeServer()
    await this.listen(this.port)
  }

  /** Whether the proxy currently has open connections. */
  get connections(): number {
    return this.sockets.size
  }
}
