import { createFileRoute } from "@tanstack/react-router"

export const Route = createFileRoute("/private")({ component: () => <h1>The private page</h1> })
