/**
 * Password hashing with argon2id (RFC 9106) at OWASP's recommended cost (19 MiB, 2 passes, one
 * lane), stored as a PHC string: `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`.
 *
 * hash-wasm computes the hash (WebAssembly: no native build); the comparison is ours, in constant
 * time, because a string comparison would stop at the first differing byte.
 */
import { timingSafeEqual } from "node:crypto"
import { argon2id } from "hash-wasm"

const cost = { memorySize: 19456, iterations: 2, parallelism: 1 }
const hashLength = 32

function derive(password: string, salt: Uint8Array, params: typeof cost): Promise<Uint8Array> {
  return argon2id({ password, salt, hashLength, outputType: "binary", ...params })
}

/** The PHC string of `password` with a fresh 16-byte salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16))
  const hash = await derive(password, salt, cost)
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64").replace(/=+$/, "")
  return `$argon2id$v=19$m=${cost.memorySize},t=${cost.iterations},p=${cost.parallelism}$${b64(salt)}$${b64(hash)}`
}

/** Whether `password` matches the PHC string `stored`; false for a string that is not one. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(stored)
  if (!match) return false
  const [, m, t, p, salt, hash] = match
  const expected = Buffer.from(hash!, "base64")
  const actual = await derive(password, Buffer.from(salt!, "base64"), { memorySize: Number(m), iterations: Number(t), parallelism: Number(p) })
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}
