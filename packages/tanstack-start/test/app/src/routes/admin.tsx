import { createFileRoute } from "@tanstack/react-router"

export const Route = createFileRoute("/admin")({ component: () => <h1>The admin page</h1> })
