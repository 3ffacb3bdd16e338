/**
 * The session strategy of a configuration.
 *
 * @module
 */
import type { ResolvedConfig } from "../config/resolve.js"
import { databaseStrategy } from "./database.js"
import { jwtStrategy } from "./jwt.js"
import type { SessionStrategy } from "./types.js"

export function sessionStrategy(config: ResolvedConfig): SessionStrategy {
  return config.session.strategy === "database" ? databaseStrategy : jwtStrategy
}
