import type { NextRequest } from "next/server"
import { basePath, handlers } from "../../../../auth"
import { ensureDemoAccount } from "../../../../lib/demo-account"

export const { GET } = handlers

/** Sesame's endpoints; a password sign-in first (re)creates the demo account if a visitor deleted it. */
export async function POST(request: NextRequest): Promise<Response> {
  if (request.nextUrl.pathname === `${basePath}/callback/password`) await ensureDemoAccount()
  return handlers.POST(request)
}
