import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Manifest } from '../config/schema/manifest-schema.js';
import type { ArtifactDef, Contract, Step } from '../config/schema/pipeline-schema.js';
import { schemaProblems } from '../json-schema/schema-validator.js';
import type { PlannedContract, TargetRef } from '../contracts/types.js';
import { WaveError } from '../core/errors/errors.js';
import type { PlannedExtract } from './plan-types.js';
import { planReviewer } from './plan-reviewer.js';
import { resolveAdapter } from './resolve-step.js';
import { fillContractCommand } from './contract-commands.js';
import { projectFacts } from '../config/load/project-placeholders.js';
import { withTestDeclarations } from './plan-test-declarations.js';

/** What a contract checks by default: its `source`, else the step's first file artifact, else the step's output. */
export function contractTarget(contract: Contract, artifacts: readonly ArtifactDef[]): TargetRef {
  if (contract.source) return { kind: 'file', path: contract.source };
  const first = artifacts[0];
  return first && first.source !== 'stdout' && first.path ? { kind: 'file', path: first.path } : { kind: 'output' };
}

/** A schema given inline (mapping or JSON text) or by file, parsed and compiled so a bad one stops the plan. */
export function readSchema(spec: { schema?: string | Record<string, unknown>; schema_path?: string }, manifestDir: string, where: string): Record<string, unknown> | undefined {
  let schema: unknown;
  let from = 'inline schema';
  try {
    if (spec.schema_path) {
      from = spec.schema_path;
      schema = JSON.parse(readFileSync(resolve(manifestDir, spec.schema_path), 'utf8'));
    } else if (typeof spec.schema === 'string') schema = JSON.parse(spec.schema);
    else schema = spec.schema;
    if (schema === undefined) return undefined;
    // The pipeline reader reports these at their line (src/config/checks/schema-checks.ts); this guards a file changed since.
    const [problem] = schemaProblems(schema);
    if (problem) throw new Error(problem.message);
  } catch (error) {
    throw new WaveError('pipeline_invalid', `${where}: ${from} is not a usable JSON Schema: ${(error as Error).message}`, {
      hint: 'Give a JSON Schema object (draft-07, or 2020-12 with $schema).',
    });
  }
  return schema as Record<string, unknown>;
}

/** The step's contracts with schemas read, judges and reviewers resolved and targets named (manifestDir is the project root). */
export function planContracts(step: Step, manifest: Manifest, manifestDir: string): PlannedContract[] {
  const declared = step.handover?.contracts ?? (step.handover?.contract ? [step.handover.contract] : []);
  // Wave's `validate: false` keeps a contract in the file but switches it off.
  const contracts = declared.filter((contract) => contract.validate !== false);
  return contracts.map((contract, i) => {
    const where = `step \`${step.id}\` contract ${i + 1} (${contract.type})`;
    const schemaObject = contract.type === 'json_schema' ? readSchema(contract, manifestDir, where) : undefined;
    if (contract.type === 'json_schema' && !schemaObject) {
      throw new WaveError('missing_field', `${where} needs \`schema\` or \`schema_path\``);
    }
    const judgeName = contract.type === 'llm_judge' ? (contract.adapter ?? manifest.extract?.adapter) : undefined;
    return {
      ...withTestDeclarations(contract, manifest.project, where),
      ...(contract.type === 'test_suite' && contract.command !== undefined ? { command: fillContractCommand(contract.command, projectFacts(manifest.project)) } : {}),
      ...(schemaObject ? { schemaObject } : {}),
      ...(judgeName ? { judge: resolveAdapter(manifest, judgeName) } : {}),
      ...(contract.type === 'agent_review' ? { reviewer: planReviewer(contract, manifest, manifestDir, where) } : {}),
      ...reworkOf(contract, step),
      target: contractTarget(contract, step.output_artifacts ?? []),
    };
  });
}

/** A rework contract's step: its own, else the step's retry.rework_step; with neither (a rework step's own contract, the checks refuse it elsewhere) it fails the step. */
function reworkOf(contract: Contract, step: Step): Partial<Contract> {
  if (contract.on_failure !== 'rework') return {};
  const target = contract.rework_step ?? step.retry?.rework_step;
  return target !== undefined ? { rework_step: target } : { on_failure: 'fail' };
}

/** The step's extract with its schema read; the adapter and model default to the manifest's `extract:` block. */
export function planExtract(step: Step, manifest: Manifest, manifestDir: string): PlannedExtract | undefined {
  if (!step.extract) return undefined;
  const schema = readSchema(step.extract, manifestDir, `step \`${step.id}\` extract`);
  if (!schema) throw new WaveError('missing_field', `step \`${step.id}\` extract needs \`schema\` or \`schema_path\``);
  const adapterName = step.extract.adapter ?? manifest.extract?.adapter;
  const model = step.extract.model ?? manifest.extract?.model;
  return { schema, ...(adapterName ? { adapter: resolveAdapter(manifest, adapterName) } : {}), ...(model ? { model } : {}) };
}
