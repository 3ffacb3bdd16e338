/** Types of bench/lib/results-file.mjs, for bench/test/bench.test.ts. */
export declare function prependSection(file: string, section: string): string
