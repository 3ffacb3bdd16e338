/**
 * The crypto a JWT session check cannot do without, written directly on `node:crypto`: decrypting
 * (and re-encrypting) a compact JWE with `alg: "dir"`, `enc: "A256CBC-HS512"` (RFC 7516, RFC 7518
 * §5.2), the format of Sesame's session tokens. The floors measure it; it is not Sesame's code, so
 * a floor that reads Sesame's token also shows that Sesame's token is the standard format.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto"

/** The 64-byte key Sesame derives for a cookie: HKDF-SHA-256(secret, salt = cookie name). Done once, as a server would. */
export function sessionKey(secret, salt) {
  const key = Buffer.from(hkdfSync("sha256", secret, salt, `Sesame Generated Encryption Key (${salt})`, 64))
  return { mac: key.subarray(0, 32), enc: key.subarray(32) }
}

function tag(key, aad, iv, ciphertext) {
  const length = Buffer.alloc(8)
  length.writeBigUInt64BE(BigInt(aad.length * 8))
  return createHmac("sha512", key.mac).update(aad).update(iv).update(ciphertext).update(length).digest().subarray(0, 32)
}

/** The claims of `token`, or null when it does not authenticate or has expired. */
export function decrypt(token, key) {
  const [header, encryptedKey, iv64, ciphertext64, tag64] = token.split(".")
  if (tag64 === undefined || encryptedKey !== "") return null
  const aad = Buffer.from(header, "ascii")
  const iv = Buffer.from(iv64, "base64url")
  const ciphertext = Buffer.from(ciphertext64, "base64url")
  const received = Buffer.from(tag64, "base64url")
  if (received.length !== 32 || !timingSafeEqual(received, tag(key, aad, iv, ciphertext))) return null
  const decipher = createDecipheriv("aes-256-cbc", key.enc, iv)
  const claims = JSON.parse(Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8"))
  return typeof claims.exp === "number" && claims.exp > Date.now() / 1000 ? claims : null
}

/** A new token for `claims` under the protected header `header` (base64url), with a fresh IV. */
export function encrypt(claims, key, header) {
  const aad = Buffer.from(header, "ascii")
  const iv = randomBytes(16)
  const cipher = createCipheriv("aes-256-cbc", key.enc, iv)
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(claims), "utf8"), cipher.final()])
  return `${header}..${iv.toString("base64url")}.${ciphertext.toString("base64url")}.${tag(key, aad, iv, ciphertext).toString("base64url")}`
}

/** The value of cookie `name` in a Cookie header, as a minimal server would find it. */
export function cookieValue(header, name) {
  if (!header) return undefined
  for (const pair of header.split("; ")) {
    if (pair.startsWith(name) && pair[name.length] === "=") return pair.slice(name.length + 1)
  }
  return undefined
}
