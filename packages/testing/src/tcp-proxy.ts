/**
 * A TCP proxy in front of a real server (PostgreSQL, MariaDB, Redis) that a test can cut: while
 * {@link TcpProxy.cut}, the connections through it are destroyed and new ones refused, as when the
 * server restarts; {@link TcpProxy.restore} lets them through again. The server itself, which
 * other tests use, is never touched.
 *
 * @module
 */
import { createServer, connect, type Server, type Socket } from "node:net"

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1: connect the driver here. */
  readonly port: number
  /** Destroys every connection through the proxy and refuses new ones (`ECONNREFUSED`) until {@link restore}. */
  cut(): Promise<void>
  restore(): Promise<void>
  /** Connections made through the proxy so far. */
  readonly connections: number
  close(): Promise<void>
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject)
      resolve()
    })
  })
}

/** A proxy from a free port on 127.0.0.1 to `target` (`127.0.0.1:<port>`). */
export async function tcpProxy(target: { host?: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  let connections = 0
  const server = createServer((client) => {
    connections++
    const upstream = connect(target.port, target.host ?? "127.0.0.1")
    sockets.add(client).add(upstream)
    const end = () => {
      client.destroy()
      upstream.destroy()
      sockets.delete(client)
      sockets.delete(upstream)
    }
    client.on("error", end).on("close", end)
    upstream.on("error", end).on("close", end)
    client.pipe(upstream)
    upstream.pipe(client)
  })
  await listen(server, 0)
  const port = (server.address() as { port: number }).port
  let closed = false
  return {
    port,
    get connections() {
      return connections
    },
    async cut() {
      // Closing the listener makes new connections fail with ECONNREFUSED, as a stopped server's
      // port does; `close` calls back once the open connections are gone too.
      const closing = new Promise<void>((resolve) => server.close(() => resolve()))
      for (const socket of sockets) socket.destroy()
      sockets.clear()
      await closing
    },
    async restore() {
      if (!server.listening) await listen(server, port)
    },
    async close() {
      if (closed) return
      closed = true
      const closing = server.listening ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve()
      for (const socket of sockets) socket.destroy()
      await closing
    },
  }
}
