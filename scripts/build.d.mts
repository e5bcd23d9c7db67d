/** Declarations for scripts/build.mjs (plain JavaScript so it runs before anything is compiled). */
export declare function isStale(): boolean;
export declare function build(): Promise<void>;
export declare function ensureBuild(): Promise<boolean>;
