/** The committed bundle's path, relative to the repository root. */
export declare const ACTION_BUNDLE: string;
/** The esbuild options of the bundle. */
export declare const actionBuildOptions: Record<string, unknown>;
/** The bundle's text, as the build produces it now (run from the repository root). */
export declare function buildActionBundle(): Promise<string>;
