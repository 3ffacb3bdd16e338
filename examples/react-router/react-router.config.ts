import type { Config } from "@react-router/dev/config"

export default {
  // Every page is rendered on the server, per request: the session differs per visitor.
  ssr: true,
  future: {
    // Route middleware (`export const middleware` in app/root.tsx), which @sesame/react-router's
    // sessionMiddleware and authorize are: React Router runs them only with this flag.
    v8_middleware: true,
  },
} satisfies Config
