/** The bindings' budget, bytes min+gzip, on top of the SDK (react excluded). */
export declare const REACT_BUDGET_BYTES: number;
/** The modules left out of the measure: they are the bindings' peers. */
export declare const REACT_EXTERNAL: string[];
/** Measures the built bindings (`react/dist/index.js`), min+gzip bytes. */
export declare function measureReactSize(): Promise<{ initial: number; lazy: number; lazyChunks: number; largestLazy: number; total: number }>;
