// TanStack Start's Vite plugin (its router, server functions and server routes), then React's.
import { tanstackStart } from "@tanstack/react-start/plugin/vite"
import react from "@vitejs/plugin-react"
import { defineConfig } from "vite"

export default defineConfig({
  server: { port: 3500 },
  plugins: [tanstackStart(), react()],
})
