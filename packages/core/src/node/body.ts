/**
 * The body of a Node.js request, read under the same limit as `Auth()`'s. When a framework's body
 * parser has read the stream already (Express's `express.json()`, `express.urlencoded()`), the body
 * it left on `req.body` is taken instead, in the form the request declared, so that the endpoints
 * parse it with their own rules (a field sent twice, a file, a nested value: refused).
 *
 * @module
 */
import { BadRequest } from "../errors.js"
import { bodyTooLarge, checkDeclaredLength, concatBytes, maxBodyBytes, type HeaderReader } from "../http/incoming.js"
import type { NodeRequest } from "./index.js"

const encoder = new TextEncoder()

/** Form fields as `key=value&…`: repeated values stay repeated, anything but text is refused. */
function formOf(fields: Record<string, unknown>): string {
  const form = new URLSearchParams()
  for (const [key, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item !== "string") throw new BadRequest(`Field "${key}" is not text.`)
      form.append(key, item)
    }
  }
  return form.toString()
}

/** What a body parser left on `req.body`, as the bytes the request carried; undefined when it left nothing. */
function parsedBody(req: NodeRequest): Uint8Array | undefined {
  const { body } = req
  if (body === undefined || body === null) return undefined
  if (body instanceof Uint8Array) return body
  if (typeof body === "string") return encoder.encode(body)
  if (typeof body !== "object") throw new BadRequest("The request body could not be read.")
  const type = (req.headers["content-type"] ?? "").toLowerCase()
  if (type.startsWith("application/x-www-form-urlencoded")) return encoder.encode(formOf(body as Record<string, unknown>))
  if (type.startsWith("application/json")) return encoder.encode(JSON.stringify(body))
  // A parser that read a body of another type (multipart) left nothing this handler can check.
  throw new BadRequest("The request body was read by another middleware in a form this endpoint cannot use.", 415)
}

/** Requests whose body was refused part-way (over the limit): their connection closes after the answer. */
export const unreadBodies = new WeakSet<NodeRequest>()

/** The body of `req`, whose headers `headers` reads. */
export async function readNodeBody(req: NodeRequest, headers: HeaderReader): Promise<Uint8Array> {
  try {
    checkDeclaredLength(headers)
  } catch (error) {
    // Refused unread: the connection ends with the answer rather than read the body to discard it.
    if (!req.readableEnded) unreadBodies.add(req)
    throw error
  }
  // A parser that ran before read the stream to its end; one that skipped this type (and may still
  // have set `req.body = {}`) left it unread.
  if (req.readableEnded) {
    const parsed = parsedBody(req) ?? new Uint8Array(0)
    // The same limit as a body read here, whatever the parser before allowed.
    if (parsed.byteLength > maxBodyBytes) throw bodyTooLarge()
    return parsed
  }
  // Events rather than `for await`, which would destroy the socket on leaving early, before the 413.
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = []
    let size = 0
    const stop = () => {
      req.off("data", data).off("end", end).off("error", failed).off("close", closed)
    }
    const data = (chunk: Buffer) => {
      size += chunk.byteLength
      if (size > maxBodyBytes) {
        stop()
        req.pause()
        unreadBodies.add(req)
        reject(bodyTooLarge())
      } else {
        chunks.push(chunk)
      }
    }
    const end = () => {
      stop()
      resolve(concatBytes(chunks, size))
    }
    const failed = (error: Error) => {
      stop()
      reject(error)
    }
    const closed = () => failed(new Error("The client closed the connection before the body was read."))
    req.on("data", data).on("end", end).on("error", failed).on("close", closed)
  })
}
