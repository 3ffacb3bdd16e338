import { reads } from "../../../auth.js"

export function GET(): Response {
  return Response.json(reads)
}
