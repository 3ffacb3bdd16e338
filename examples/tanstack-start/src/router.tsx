// src/router.tsx: the router, over the routes TanStack Start's plugin finds in src/routes.
import { createRouter } from "@tanstack/react-router"
import { routeTree } from "./routeTree.gen"

export function getRouter() {
  return createRouter({ routeTree, scrollRestoration: true, defaultPreload: "intent" })
}
