/** Where the run sequence writes its notes and warnings (process.stderr by default) or a plan (process.stdout). */
export interface TextWriter {
  write(text: string): unknown;
}
