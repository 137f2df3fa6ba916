import { INJECTED_ARTIFACTS_DIR } from '../core/run-paths.js';
import { templateValue, type TemplateSource } from './template-vars.js';
import { renderTemplate } from './templates.js';
import type { Plan, PlannedStep } from './plan-types.js';

/** Placeholder values for a dry run, where nothing has run yet. */
function placeholder(plan: Plan, step: PlannedStep): (name: string) => string | undefined {
  const source: TemplateSource = {
    input: plan.input,
    runId: '<run-id>',
    pipelineName: plan.pipelineName,
    stepId: step.id,
    project: (key) => plan.project[key],
    artifact: (as) => `<workspace>/${INJECTED_ARTIFACTS_DIR}/${as}`,
    stepOutput: (id, fieldPath) => `<${['steps', id, 'output', ...fieldPath].join('.')}>`,
  };
  return (name) => templateValue(name, source);
}

/** The text `wave run --dry-run` prints: order, parallel groups, adapters, prompts, contracts. */
export function describePlan(plan: Plan): string {
  const lines = [`Pipeline ${plan.pipelineName} (${plan.pipelineFile})`, `Input: ${plan.input || '(none)'}`, ''];
  lines.push('Order (steps in one group run in parallel):');
  plan.layers.forEach((layer, i) => lines.push(`  ${i + 1}. ${layer.join(', ')}`));
  for (const step of plan.steps) {
    lines.push('', `Step ${step.id}`);
    lines.push(`  runs on:   ${step.execType === 'command' ? 'shell command' : `${step.adapter.name} (${step.adapter.type})`}${step.model ? `, model ${step.model}` : ''}`);
    if (step.persona) lines.push(`  persona:   ${step.persona.name}`);
    if (step.dependencies.length) lines.push(`  after:     ${step.dependencies.join(', ')}`);
    lines.push(`  timeout:   ${step.timeoutMs / 60_000} min; attempts: ${step.retry.maxAttempts}${step.optional ? '; optional' : ''}`);
    if (step.fallbacks.length) lines.push(`  fallbacks: ${step.fallbacks.map((a) => a.name).join(' → ')}`);
    if (step.thread) lines.push(`  thread:    ${describeThread(step)}`);
    for (const a of step.injectArtifacts) lines.push(`  injects:   ${a.step}/${a.artifact} as ${a.as ?? a.artifact}${a.optional ? ' (optional)' : ''}`);
    for (const a of step.outputArtifacts) lines.push(`  produces:  ${a.name} ← ${a.source === 'stdout' ? 'stdout' : a.path}`);
    for (const c of step.contracts)
      lines.push(`  contract:  ${c.type}${c.schema_path ? ` ${c.schema_path}` : ''}${c.command ? ` \`${c.command}\`` : ''} (on failure: ${c.on_failure ?? 'fail'})`);
    lines.push(`  ${step.execType === 'command' ? 'command' : 'prompt'}:`);
    const receives = step.execType === 'prompt' && step.thread && step.thread.fidelity !== 'fresh' && step.thread.earlier.length > 0;
    if (receives) lines.push(`    │ <thread ${step.thread.name}: the transcripts of ${step.thread.earlier.join(', ')} at fidelity ${step.thread.fidelity}>`, '    │');
    const rendered = renderTemplate(step.template, placeholder(plan, step));
    for (const line of rendered.trimEnd().split('\n')) lines.push(`    │ ${line}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `impl, fidelity full: receives the transcripts of a, b` — what a thread gives the step. */
function describeThread(step: PlannedStep): string {
  const { name, fidelity, earlier } = step.thread!;
  const head = `${name}, fidelity ${fidelity}`;
  if (step.execType === 'command') return `${head}: a command receives nothing; its output joins the thread`;
  if (fidelity === 'fresh') return `${head}: receives nothing; its transcript joins the thread`;
  return earlier.length ? `${head}: receives the transcripts of ${earlier.join(', ')}` : `${head}: the thread's first step`;
}
