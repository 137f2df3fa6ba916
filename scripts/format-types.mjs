// The manifest's and the pipeline's TypeScript types written out from their schemas (src/api/format-types.ts), so the
// published declarations name no package that is bundled rather than installed. `npm run schemas` writes the file.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import ts from 'typescript';

export const FORMAT_TYPES_FILE = 'src/api/format-types.ts';
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Each schema file and the types inferred there that the API hands out. */
const SOURCES = {
  'src/config/schema/manifest-schema.ts': ['Manifest', 'AdapterConfig', 'PersonaConfig', 'RuntimeConfig'],
  'src/config/schema/pipeline-schema.ts': ['Pipeline'],
};

const HEADER = `// Written by \`npm run schemas\` (scripts/format-types.mjs) from src/config/schema: do not edit by hand.
// The formats' types spelled out, so the published declarations need no bundled package; test/api/format-types.test.ts
// proves each equals the type its schema infers.
`;

/** How a type reads once its aliases and zod's inference are expanded into plain TypeScript. */
const FLAGS = ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.InTypeAlias | ts.NodeBuilderFlags.IgnoreErrors;

/** zod's `catchall` infers named keys beside an index signature they do not fit; TypeScript can only write that as a mapped type. */
const CATCHALL = `/** Named keys beside a catch-all for the rest, as a schema's \`catchall\` infers them. */
type WithCatchall<Rest, Named> = { [K in keyof (Rest & Named)]: (Rest & Named)[K] };
`;

/** Rewrites each object literal with an index signature and named keys into `WithCatchall<{ index }, { named }>`. */
function spellCatchalls(context) {
  const visit = (node) => {
    const next = ts.visitEachChild(node, visit, context);
    if (!ts.isTypeLiteralNode(next)) return next;
    const index = next.members.filter(ts.isIndexSignatureDeclaration);
    const named = next.members.filter((member) => !ts.isIndexSignatureDeclaration(member));
    if (index.length === 0 || named.length === 0) return next;
    const literal = (members) => ts.factory.createTypeLiteralNode(members);
    return ts.factory.createTypeReferenceNode('WithCatchall', [literal(index), literal(named)]);
  };
  return (node) => ts.visitNode(node, visit);
}

/** An object type this long, written more than once, is written once as a type of its own and named where it stands. */
const HOIST_CHARS = 120;

const pascal = (key) => key.replace(/(^|_)([a-z])/g, (_, __, letter) => letter.toUpperCase());

/** The object types written more than once across `roots` (name → node), by text: a name (a root's own, else its key's) and a node. */
function repeatedObjects(roots, print) {
  const seen = new Map();
  const note = (node, name) => {
    const text = print(node);
    if (text.length < HOIST_CHARS) return;
    const entry = seen.get(text) ?? { count: 0, name, node };
    seen.set(text, { ...entry, count: entry.count + 1 });
  };
  const walk = (node, key) => {
    if (ts.isTypeLiteralNode(node) && key !== undefined) note(node, pascal(key));
    ts.forEachChild(node, (child) => walk(child, ts.isPropertySignature(child) ? child.name.text : key));
  };
  for (const [name, node] of roots) note(node, name);
  for (const node of roots.values()) {
    ts.forEachChild(node, (child) => walk(child, ts.isPropertySignature(child) ? child.name.text : undefined));
  }
  const taken = new Set(roots.keys());
  const repeated = new Map();
  for (const [text, { count, name, node }] of seen) {
    if (count < 2) continue;
    const unique = roots.get(name) === node ? name : [name, ...[2, 3, 4, 5, 6, 7, 8, 9].map((n) => `${name}${n}`)].find((candidate) => !taken.has(candidate));
    taken.add(unique);
    repeated.set(text, { name: unique, node });
  }
  return repeated;
}

/** `node` with every repeated object type inside it (not itself) replaced by its name. */
function nameRepeats(node, repeated, print, context) {
  const visit = (inner) => {
    const name = ts.isTypeLiteralNode(inner) ? repeated.get(print(inner))?.name : undefined;
    return name ? ts.factory.createTypeReferenceNode(name) : ts.visitEachChild(inner, visit, context);
  };
  return ts.visitEachChild(node, visit, context);
}

/** The declarations of `roots` (exported) and of the object types they repeat (named, not exported). */
function declarations(roots, sourceOf, print) {
  const repeated = repeatedObjects(roots, print);
  const bodies = new Map([...roots].map(([name, node]) => [name, node]));
  for (const { name, node } of repeated.values()) if (!roots.has(name)) bodies.set(name, node);
  return [...bodies].map(([name, node]) => {
    const [named] = ts.transform(node, [(context) => (root) => nameRepeats(root, repeated, print, context)]).transformed;
    const text = print(named);
    return roots.has(name) ? `/** The \`${name}\` of ${sourceOf.get(name)}. */\nexport type ${name} = ${text};` : `type ${name} = ${text};`;
  });
}

/** The text of src/api/format-types.ts for the schemas as they are now. */
export async function formatTypesText() {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  const program = ts.createProgram(
    Object.keys(SOURCES).map((file) => join(ROOT, file)),
    config.options,
  );
  const checker = program.getTypeChecker();
  const printer = ts.createPrinter();
  const blank = ts.createSourceFile('format-types.ts', '', ts.ScriptTarget.Latest);
  const print = (node) => printer.printNode(ts.EmitHint.Unspecified, node, blank);
  const roots = new Map();
  const sourceOf = new Map();
  for (const [file, names] of Object.entries(SOURCES)) {
    const source = program.getSourceFile(join(ROOT, file));
    for (const name of names) {
      const alias = source.statements.find((node) => ts.isTypeAliasDeclaration(node) && node.name.text === name);
      if (!alias) throw new Error(`${file} declares no type ${name}`);
      const node = checker.typeToTypeNode(checker.getTypeAtLocation(alias.name), alias, FLAGS);
      roots.set(name, ts.transform(node, [spellCatchalls]).transformed[0]);
      sourceOf.set(name, file);
    }
  }
  const text = `${HEADER}${CATCHALL}\n${declarations(roots, sourceOf, print).join('\n\n')}\n`;
  const options = await prettier.resolveConfig(join(ROOT, FORMAT_TYPES_FILE));
  return prettier.format(text, { ...options, filepath: join(ROOT, FORMAT_TYPES_FILE) });
}
