import type { Command } from 'commander';
import { loadProjectManifest } from '../../config/load/load.js';
import { findProjectRoot } from '../../config/load/paths.js';
import { safeText } from '../../core/terminal-safe.js';
import { listContracts } from '../list/contract-listing.js';
import { cellText, fitLine, formatTable, tableWidth } from '../list/list-table.js';
import { listAdapters, listPersonas } from '../list/manifest-listing.js';
import { listPipelines, type PipelineListing } from '../list/pipeline-listing.js';
import { listSkills } from '../list/skill-listing.js';

interface ListFlags {
  manifest?: string;
  json?: boolean;
}

/** One `wave list <kind>`: what it says it lists, and its entries, printed as JSON or as a table. */
interface Listing {
  description: string;
  list(flags: ListFlags): Promise<{ entries: readonly unknown[]; table: () => string }>;
}

/** A listing of entries of one shape, and the table they make. */
function listing<T>(description: string, entries: (flags: ListFlags) => Promise<T[]>, table: (entries: T[]) => string): Listing {
  return {
    description,
    list: async (flags) => {
      const found = await entries(flags);
      return { entries: found, table: () => table(found) };
    },
  };
}

const manifestOf = (flags: ListFlags) => loadProjectManifest(process.cwd(), flags.manifest);

/** A table as printed: its lines fit the terminal. */
function printedTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return `${formatTable(header, rows, tableWidth()).join('\n')}\n`;
}

const LISTINGS: Record<string, Listing> = {
  pipelines: listing('List the pipelines `wave run <name>` finds, what each is for, and whether it loads.', (flags) => listPipelines(process.cwd(), flags.manifest), pipelineTable),
  personas: listing(
    "List the manifest's personas with their adapter and model.",
    async (flags) => listPersonas(await manifestOf(flags)),
    (entries) =>
      printedTable(
        ['PERSONA', 'ADAPTER', 'MODEL', 'DESCRIPTION'],
        entries.map((p) => [p.name, p.adapter, p.model ?? '-', p.description ?? '']),
      ),
  ),
  adapters: listing(
    "List the manifest's adapters with their type, binary and model.",
    async (flags) => listAdapters(await manifestOf(flags)),
    (entries) =>
      printedTable(
        ['ADAPTER', 'TYPE', 'BINARY', 'MODEL'],
        entries.map((a) => [a.name, a.type, a.binary ?? '-', a.model ?? '-']),
      ),
  ),
  contracts: listing(
    'List the contract types this version runs, with what each checks.',
    async () => listContracts(),
    (entries) =>
      printedTable(
        ['CONTRACT', 'CHECKS'],
        entries.map((c) => [c.type, c.checks]),
      ),
  ),
  skills: listing(
    'List the skills the manifest, its personas and the pipelines name, and where each is found.',
    async (flags) => listSkills(await manifestOf(flags)),
    (entries) =>
      printedTable(
        ['SKILL', 'FOLDER', 'NAMED BY'],
        entries.map((s) => [s.name, s.folder ?? 'missing', s.declaredBy.join(', ')]),
      ),
  ),
};

/** `wave list <kind>`: the project's pipelines, personas, adapters and skills, and the contract types, as Wave lists them. */
export function registerList(program: Command): void {
  const list = program.command('list').description('List the pipelines, personas, adapters, contracts or skills of the project.');
  for (const [kind, entry] of Object.entries(LISTINGS)) {
    list
      .command(kind)
      .description(entry.description)
      .option('-m, --manifest <file>', 'the manifest (default: wave.yaml here or in a parent folder)')
      .option('--json', `print the ${kind} as a JSON array`)
      .action(async (flags: ListFlags) => {
        const { entries, table } = await entry.list(flags);
        if (flags.json) process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
        else process.stdout.write(entries.length === 0 ? `No ${kind} in the project at ${safeText(findProjectRoot(process.cwd(), flags.manifest))}.\n` : table());
      });
  }
}

/** A pipeline that does not load shows its first problem under it, and how to see the rest. */
function pipelineTable(entries: PipelineListing[]): string {
  const width = tableWidth();
  const rows = entries.map((p) => [p.name, p.loads ? (p.disabled ? 'disabled' : 'ok') : 'broken', p.description ?? '']);
  const [header, ...lines] = formatTable(['PIPELINE', 'LOADS', 'DESCRIPTION'], rows, width);
  const out = [header!];
  entries.forEach((p, i) => {
    out.push(lines[i]!);
    if (p.ambiguous) out.push(fitLine(`    in both pipelines/ and .agents/pipelines/: wave run needs the path, ${cellText(p.file)}`, width));
    const [first, ...more] = p.problems;
    if (first === undefined) return;
    // The count comes first: a cut line still says how to see every problem.
    if (more.length) out.push(fitLine(`    ${more.length + 1} problems (wave validate ${cellText(p.file)}), the first:`, width));
    out.push(fitLine(`    ${cellText(first.split('\n')[0]!)}`, width));
  });
  return `${out.join('\n')}\n`;
}
