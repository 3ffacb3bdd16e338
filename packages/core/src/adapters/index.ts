/**
 * The adapter contract, and an in-memory adapter.
 *
 * @module
 */
export type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser, VerificationToken } from "./types.js"
// What capabilities keep in the store, as they read it.
export type { AdapterPassword } from "../password/storage.js"
export type { AdapterTwoFactor } from "../two-factor/storage.js"
export type { AdapterSigningKey } from "../tokens/storage.js"
export { MemoryAdapter } from "./memory.js"
// `listUsers`: its query's checks, cursor and page, for adapters (Sesame's keep them alike).
export {
  byEmailThenId,
  checkUserListLimits,
  checkUserListQuery,
  isAfter,
  matchesSearch,
  maxUserListLimit,
  userListCursor,
  userListPage,
  type CheckedUserListQuery,
  type UserListPage,
  type UserListQuery,
} from "./list-users.js"
export type {
  Comparison,
  Condition,
  FieldDeclaration,
  FieldType,
  FindManyQuery,
  JsonValue,
  ModelDeclaration,
  Store,
  StoredRow,
  StoredValue,
  Where,
} from "../store/model.js"
export { checkModel, columnOf, comparisonOf, conditionBrand, isUserModel, op, primaryKeyOf, StoreConflict, type Operator } from "../store/model.js"
export { resolveUserFields, userModel, type UserFieldDeclaration, type UserFieldDeclarations } from "../user/fields.js"
export { builtInModels } from "../registry.js"
export { sessionPartModel } from "../modules/session-parts.js"
// For stores that decide conditions and order in JavaScript (the memory store, Redis).
export { conditionsOf, fieldOf, matches, ordered, sortRows, type Conditions } from "../store/evaluate.js"
export type { MemoryAdapter as MemoryAdapterInstance } from "./memory.js"
