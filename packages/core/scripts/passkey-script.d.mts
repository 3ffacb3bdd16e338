/** Types of `passkey-script.mjs`, for the test that imports it. */
export declare const core: string
export interface PasskeyScript {
  code: string
  version: string
  library: { name: string; version: string; license: string; copyright: string }
}
export declare function buildPasskeyScript(): Promise<PasskeyScript>
export declare function generatedModule(script: PasskeyScript): string
