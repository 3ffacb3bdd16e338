import { createServer } from "node:net"

/** A port on 127.0.0.1 that was free a moment ago, for a server that needs its URL before it starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
