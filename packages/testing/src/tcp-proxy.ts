/**
 * A TCP proxy in front of a real server (PostgreSQL, MariaDB, Redis) that a test can cut: while
 * cut, every connection through it is destroyed and new ones are refused (`ECONNREFUSED`), as when
 * the server restarts; {@link TcpProxy.restore} lets them through again on the same port. The
 * server itself, which other tests use, is never touched. {@link TcpProxy.failOn} cuts at a precise
 * moment: when the app sends a statement containing a text (PostgreSQL's protocol carries the SQL
 * as plain text).
 *
 * @module
 */
import { createServer, connect, type Server, type Socket } from "node:net"

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1: connect the driver here. */
  readonly port: number
  /** Destroys every connection through the proxy and refuses new ones until {@link restore}. */
  cut(): Promise<void>
  /** Accepts connections again, on the same port (nothing when it does). */
  restore(): Promise<void>
  /**
   * Cuts when the app next sends `text`: with `forward`, after passing that chunk on (the server
   * receives it, the app never hears back); without, before (it never arrives). Resolves once cut.
   */
  failOn(text: string, options: { forward: boolean }): Promise<void>
  /** Connections open through the proxy now. */
  readonly connections: number
  close(): Promise<void>
}

/** A proxy from a free port on 127.0.0.1 to `target`. */
export async function tcpProxy(target: { host?: string; port: number }): Promise<TcpProxy> {
  const clients = new Set<Socket>()
  let trigger: { text: string; forward: boolean; fired: () => void } | null = null
  let server = makeServer()
  let port = 0

  function makeServer(): Server {
    return createServer((client) => {
      const upstream = connect(target.port, target.host ?? "127.0.0.1")
      clients.add(client)
      client.on("close", () => clients.delete(client))
      for (const socket of [client, upstream]) {
        // A reset is what this proxy is for; it is no error of the test.
        socket.on("error", () => {})
      }
      client.on("data", (chunk: Buffer) => {
        const armed = trigger
        if (armed && chunk.includes(armed.text)) {
          trigger = null
          const fire = () => void proxy.cut().then(armed.fired)
          if (armed.forward) upstream.write(chunk, fire)
          else fire()
          return
        }
        upstream.write(chunk)
      })
      upstream.on("data", (chunk: Buffer) => client.write(chunk))
      client.on("close", () => upstream.destroy())
      upstream.on("close", () => client.destroy())
    })
  }

  function listen(on: number): Promise<void> {
    return new Promise((resolve, reject) => {
      server.once("error", reject)
      server.listen(on, "127.0.0.1", () => {
        server.off("error", reject)
        port = (server.address() as { port: number }).port
        resolve()
      })
    })
  }

  async function stop(): Promise<void> {
    // `close` calls back once the open connections are gone too: they are destroyed right after.
    const closed = server.listening ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve()
    for (const socket of clients) socket.destroy()
    await closed
  }

  const proxy: TcpProxy = {
    get port() {
      return port
    },
    get connections() {
      return clients.size
    },
    cut: stop,
    async restore() {
      if (server.listening) return
      server = makeServer()
      await listen(port)
    },
    failOn(text, { forward }) {
      return new Promise((fired) => (trigger = { text, forward, fired }))
    },
    close: stop,
  }
  await listen(0)
  return proxy
}
