/**
 * A software WebAuthn authenticator for server-level tests: it answers the options Sesame hands
 * out the way a browser and a platform authenticator would, with an ES256 (P-256) key from
 * `node:crypto`, `none` attestation and signed assertions. Everything a real authenticator puts on
 * the wire is built here by hand, so that a test can bend any part of it.
 *
 * The formats, from the WebAuthn Level 3 spec:
 * - clientDataJSON: `{"type","challenge","origin","crossOrigin"}` as UTF-8 JSON (§5.8.1).
 * - authenticator data: SHA-256(RP ID) ‖ flags ‖ 32-bit big-endian sign count ‖ attested credential
 *   data on registration: AAGUID (16 bytes) ‖ 16-bit id length ‖ credential id ‖ COSE key (§6.1).
 * - attestation object: the CBOR map `{"fmt":"none","attStmt":{},"authData":…}` (§6.5, §8.7).
 * - assertion signature: ECDSA over authenticator data ‖ SHA-256(clientDataJSON), DER-encoded (§6.3.3).
 *
 * @module
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto"

/** The subset of `PublicKeyCredentialCreationOptionsJSON` the authenticator reads. */
export interface CreationOptionsJSON {
  challenge: string
  rp: { id?: string; name: string }
  user: { id: string; name: string; displayName: string }
  excludeCredentials?: { id: string; type?: string; transports?: string[] }[]
}

/** The subset of `PublicKeyCredentialRequestOptionsJSON` the authenticator reads. */
export interface RequestOptionsJSON {
  challenge: string
  rpId?: string
  allowCredentials?: { id: string; type?: string; transports?: string[] }[]
}

export interface RegistrationResponseJSON {
  id: string
  rawId: string
  type: "public-key"
  response: { clientDataJSON: string; attestationObject: string; transports: string[] }
  clientExtensionResults: Record<string, unknown>
  authenticatorAttachment: "platform"
}

export interface AuthenticationResponseJSON {
  id: string
  rawId: string
  type: "public-key"
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle: string }
  clientExtensionResults: Record<string, unknown>
  authenticatorAttachment: "platform"
}

/** What a ceremony is made against; each defaults to what the options say. Override to forge. */
export interface CeremonyOverrides {
  /** The origin the "browser" reports. */
  origin: string
  /** The RP ID whose hash goes in the authenticator data. */
  rpId?: string
  /** The challenge signed in the client data. */
  challenge?: string
  /** The client data `type`. */
  type?: string
  /** Whether the user-verified flag is set. Default: the authenticator's setting. */
  userVerified?: boolean
}

export interface SoftCredential {
  /** base64url, as it travels. */
  id: string
  rpId: string
  userHandle: string
  privateKey: KeyObject
  /** The last sign count reported. */
  counter: number
}

export interface SoftAuthenticatorOptions {
  /** Whether the sign count goes up with each assertion; synced passkeys keep it at 0. Default true. */
  counter?: boolean
  /** Whether the user-verified flag is set. Default true. */
  userVerified?: boolean
}

const flags = { userPresent: 0x01, userVerified: 0x04, attestedData: 0x40 }

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url")
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest()

/** Minimal CBOR (RFC 8949) for what the attestation object and COSE key hold: ints, bytes, text, maps. */
function cbor(value: number | string | Uint8Array | Map<number | string, unknown>): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n])
    if (n < 0x100) return Buffer.from([(major << 5) | 24, n])
    if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff])
    const b = Buffer.alloc(5)
    b[0] = (major << 5) | 26
    b.writeUInt32BE(n, 1)
    return b
  }
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === "string") return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)])
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value])
  const parts = [head(5, value.size)]
  for (const [k, v] of value) parts.push(cbor(k), cbor(v as number | string | Uint8Array | Map<number | string, unknown>))
  return Buffer.concat(parts)
}

/** The credential public key as a COSE_Key: EC2, ES256, P-256, x, y (RFC 9053 §7.1). */
function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: "jwk" })
  return cbor(
    new Map<number, unknown>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]),
  )
}

function clientData(type: string, challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
}

function authenticatorData(rpId: string, flagBits: number, counter: number, attested?: Buffer): Buffer {
  const count = Buffer.alloc(4)
  count.writeUInt32BE(counter)
  return Buffer.concat([sha256(rpId), Buffer.from([flagBits]), count, ...(attested ? [attested] : [])])
}

/** A platform authenticator in software. */
export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = []
  private readonly options: Required<SoftAuthenticatorOptions>

  constructor(options: SoftAuthenticatorOptions = {}) {
    this.options = { counter: true, userVerified: true, ...options }
  }

  private flags(userVerified: boolean | undefined, extra = 0): number {
    return flags.userPresent | ((userVerified ?? this.options.userVerified) ? flags.userVerified : 0) | extra
  }

  /** Makes a new credential for `options`, as `navigator.credentials.create()` would, and keeps it. */
  register(options: CreationOptionsJSON, overrides: CeremonyOverrides): RegistrationResponseJSON {
    const rpId = overrides.rpId ?? options.rp.id ?? new URL(overrides.origin).hostname
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" })
    const id = randomBytes(32)
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(id.length)
    // A zero AAGUID, as authenticators send with `none` attestation.
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, coseKey(publicKey)])
    const counter = 0
    const authData = authenticatorData(rpId, this.flags(overrides.userVerified, flags.attestedData), counter, attested)
    const attestationObject = cbor(new Map<string, unknown>([["fmt", "none"], ["attStmt", new Map()], ["authData", authData]]))
    this.credentials.push({ id: b64url(id), rpId, userHandle: options.user.id, privateKey, counter })
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientData(overrides.type ?? "webauthn.create", overrides.challenge ?? options.challenge, overrides.origin)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    }
  }

  /**
   * Signs an assertion for `options`, as `navigator.credentials.get()` would: with the credential
   * `credentialId`, else the first one the options allow, else (a discoverable request) the first
   * one for the RP. `counter` forces the reported sign count.
   */
  authenticate(options: RequestOptionsJSON, overrides: CeremonyOverrides & { credentialId?: string; counter?: number }): AuthenticationResponseJSON {
    const requestedRp = options.rpId ?? new URL(overrides.origin).hostname
    const rpId = overrides.rpId ?? requestedRp
    const allowed = new Set((options.allowCredentials ?? []).map((c) => c.id))
    const credential =
      this.credentials.find((c) => c.id === overrides.credentialId) ??
      this.credentials.find((c) => (allowed.size > 0 ? allowed.has(c.id) : c.rpId === requestedRp))
    if (!credential) throw new Error("The soft authenticator has no credential for these options.")
    if (overrides.counter !== undefined) credential.counter = overrides.counter
    else if (this.options.counter) credential.counter += 1
    const authData = authenticatorData(rpId, this.flags(overrides.userVerified), credential.counter)
    const data = clientData(overrides.type ?? "webauthn.get", overrides.challenge ?? options.challenge, overrides.origin)
    const signature = sign("sha256", Buffer.concat([authData, sha256(data)]), credential.privateKey)
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(data),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    }
  }
}
