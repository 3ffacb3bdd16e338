// Express 4.22 is installed under the alias `express4` (package.json) to run the tests on both
// majors; @types/express (5) describes its API closely enough for what the tests call.
declare module "express4" {
  import express from "express"
  export default express
}
