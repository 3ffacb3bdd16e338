/**
 * The test app's configuration (see ../session-per-request.test.ts): JWT sessions, whose cookies
 * the tests make themselves. Every run of the `session` callback is a session read: the session
 * says which one made it (`read`), and GET /api/reads answers how many there were.
 */
import Sesame from "@sesame/next"

interface Reads {
  count: number
}

// On globalThis: the proxy's bundle and the app's are separate module instances in one process.
const shared = globalThis as { sesameTestAppReads?: Reads }
export const reads: Reads = (shared.sesameTestAppReads ??= { count: 0 })

export const { auth } = Sesame({
  trustHost: true,
  providers: [],
  callbacks: {
    session({ session }) {
      reads.count += 1
      return { ...session, read: reads.count }
    },
  },
})
