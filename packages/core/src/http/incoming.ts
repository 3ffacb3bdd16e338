/**
 * A request as the handler reads it, whatever carried it: a web `Request` (`Auth()`), or a Node.js
 * `IncomingMessage` (`toNodeHandler`, which never builds a web `Request` on the session path).
 * Everything the endpoints need is here: the method, the URL, a way to read headers and the body.
 * What an app's code is handed (`authorize`, `sendVerificationRequest`, `clientIp`) is a web
 * `Request`, made on first use by {@link Incoming.request}.
 *
 * @module
 */
import { BadRequest } from "../errors.js"
import { peerAddressOf } from "./client-ip.js"

/** Reads one header: `null` when absent, several values joined as `Headers.get` joins them. */
export interface HeaderReader {
  get(name: string): string | null
}

export interface Incoming {
  /** As sent (`GET`, `HEAD`, `POST`, …). */
  readonly method: string
  readonly url: URL
  readonly headers: HeaderReader
  /** The TCP peer's address (the socket's remote address), when whatever carried the request knows it. */
  readonly peer: string | undefined
  /** A read the app's own server made for a page it renders (`markAppRead`), not the client's request. */
  readonly appRead?: boolean
  /** The body's bytes, at most {@link maxBodyBytes} (a `BadRequest` 413 beyond); read once. */
  body(): Promise<Uint8Array>
  /** The request as a web `Request`, for the app's callbacks: the same one on every call. */
  request(): Request
}

/** Largest request body read, in bytes. */
export const maxBodyBytes = 1024 * 1024

/** Joins chunks read under the size limit. */
export function concatBytes(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

/** The answer to a body over {@link maxBodyBytes}, however it was found out. */
export function bodyTooLarge(): BadRequest {
  return new BadRequest("The request body is too large.", 413)
}

/** Refuses a body whose declared length is over the limit before reading any of it. */
export function checkDeclaredLength(headers: HeaderReader): void {
  if (declaredOver(headers, maxBodyBytes)) throw bodyTooLarge()
}

/** Whether the body's declared length (`Content-Length`) is over `maxBytes`. */
const declaredOver = (headers: HeaderReader, maxBytes: number): boolean => Number(headers.get("content-length") ?? "0") > maxBytes

/**
 * The body of `request`, at most `maxBytes`: a declared length over it is refused before anything
 * is read, and the reading stops (and the stream is cancelled) as soon as more arrives; `tooLarge`
 * makes the error thrown then. What a plugin's service reads its requests with
 * (`SesameModule.services`), as the endpoints read theirs.
 */
export async function readBodyWithin(request: Request, maxBytes: number, tooLarge: () => Error): Promise<Uint8Array> {
  if (declaredOver(request.headers, maxBytes)) throw tooLarge()
  if (!request.body) return new Uint8Array(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      throw tooLarge()
    }
    chunks.push(value)
  }
  return concatBytes(chunks, size)
}

const readLimited = (request: Request): Promise<Uint8Array> => readBodyWithin(request, maxBodyBytes, bodyTooLarge)

/** A web `Request` as an {@link Incoming}. */
/** The requests the app's server made to read the session for a page: see {@link markAppRead}. */
const appReads = new WeakSet<Request>()

/**
 * Marks `request` as one the app's own server makes to read the session (or a token) for a page it
 * renders (`readSession`, `getApiToken`): the client made the page's request, which is the app's to
 * limit, and counting each read against the client would let a neighbour behind the same address
 * sign everyone out of the app's pages.
 */
export function markAppRead(request: Request): Request {
  appReads.add(request)
  return request
}

export function fromRequest(request: Request): Incoming {
  return {
    appRead: appReads.has(request),
    method: request.method,
    url: new URL(request.url),
    headers: request.headers,
    peer: peerAddressOf(request),
    body: () => readLimited(request),
    request: () => request,
  }
}
