// The test app of @sesame/tanstack-start, built once per change of its inputs by ../build.ts.
import { tanstackStart } from "@tanstack/react-start/plugin/vite"
import react from "@vitejs/plugin-react"
import { defineConfig } from "vite"

export default defineConfig({ plugins: [tanstackStart(), react()] })
