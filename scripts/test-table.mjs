// Prints what the agent CLIs proved in this test run, as a table (CLI × scenario), then the whole
// run's totals as one closing line. Reads the JSON report vitest writes (see vitest.config.ts).
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

const file = process.argv[2] ?? 'test-results/vitest.json';
if (!existsSync(file)) {
  console.log(`no test report at ${file}`);
  process.exit(0);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const rows = [];
for (const suite of report.testResults ?? []) {
  if (!suite.name.includes('/test/e2e/')) continue;
  const cli = basename(suite.name).replace(/(-run|-faults)?\.test\.ts$/, '');
  for (const test of suite.assertionResults ?? []) rows.push([cli, test.title, test.status]);
}
if (rows.length) {
  console.log('\nAgent CLIs against the scripted model server:\n');
  console.log('| CLI | scenario | result |');
  console.log('|---|---|---|');
  for (const [cli, title, status] of rows) console.log(`| ${cli} | ${title} | ${status} |`);
  console.log('');
}
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${report.numPassedTests} passed, ${report.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`);
