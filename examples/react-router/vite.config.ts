import { reactRouter } from "@react-router/dev/vite"
import { defineConfig } from "vite"

export default defineConfig({
  plugins: [reactRouter()],
  // Installed from npm, @sesame/core and @sesame/react-router sit in node_modules, and the server
  // build leaves them to Node.js at run time. In this repository they are linked workspace folders,
  // which Vite would bundle; this keeps them where an installed app has them (one copy of each, so
  // that `instanceof CredentialsSignin` holds). An app of your own does not need this line.
  ssr: { external: ["@sesame/core", "@sesame/react-router"] },
})
