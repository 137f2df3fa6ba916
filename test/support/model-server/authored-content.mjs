// The content a scripted agent writes into a file no schema describes, of the kind the file's extension asks for.

/** What the `author` scenario writes: JSON carrying the fields of the usual review and findings reports, else text of the file's kind. */
export function authoredContent(path) {
  if (path.endsWith('.json')) return `${JSON.stringify({ success: true, message: 'written by the scripted model', scanned_dir: '.', findings: [] })}\n`;
  if (path.endsWith('.go')) return 'package example_test\n\nimport "testing"\n\nfunc TestExample(t *testing.T) {}\n';
  if (path.endsWith('.md')) return '# Summary\n\nWritten by the scripted model.\n';
  return 'Hello from the scripted model.\n';
}
