/** The generated file's path, relative to the repository root. */
export declare const FORMAT_TYPES_FILE: string;
/** The text of src/api/format-types.ts for the schemas as they are now (run from the repository root). */
export declare function formatTypesText(): Promise<string>;
