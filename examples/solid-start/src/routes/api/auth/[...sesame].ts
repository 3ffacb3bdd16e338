import { SolidAuth } from "@sesame/solid-start"
import { authConfig } from "~/lib/auth"

export const { GET, POST } = SolidAuth(authConfig)
