/**
 * For the SQL adapters' timeout tests: a TCP server that accepts connections and never says a word,
 * like a database server that hangs.
 */
import { createServer, type Server, type Socket } from "node:net"

/** Listens on a free loopback port; `close` drops every connection and stops listening. */
export async function blackHole(): Promise<{ server: Server; port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on("error", () => {})
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const close = async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => server.close(resolve))
  }
  return { server, port: (server.address() as { port: number }).port, close }
}
