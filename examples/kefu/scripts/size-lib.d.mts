/** Budget of the app's initial JavaScript, bytes min+gzip. */
export declare const APP_BUDGET_BYTES: number;
/** The relative static imports of a built chunk. */
export declare function staticImports(code: string): string[];
/** Measures the initial (entry + static imports) and lazy JavaScript of a built app, min+gzip. */
export declare function measureApp(distDir: string): Promise<{ initial: number; initialFiles: string[]; lazy: number; lazyFiles: number }>;
