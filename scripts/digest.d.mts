/** Types of scripts/digest.mjs, for the tests that build an app when its inputs changed. */
export declare function filesBelow(dir: string, skip?: (name: string) => boolean): Generator<string>
export declare function digestFiles(root: string, paths: Iterable<string>): string
