import { sesame } from "@sesame/tanstack-start"
import { createFileRoute } from "@tanstack/react-router"
import { authConfig } from "../../auth"

export const Route = createFileRoute("/auth/$")({ server: { handlers: sesame(authConfig) } })
