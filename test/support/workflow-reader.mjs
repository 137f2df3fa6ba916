// A workflow read as GitHub reads it (@actions/workflow-parser): for the compile tests and bench/attack-names.mjs.
import { NoOperationTraceWriter, convertWorkflowTemplate, isBasicExpression, isMapping, isSequence, parseWorkflow } from '@actions/workflow-parser';

/** Every expression GitHub evaluates in a parsed workflow's tokens, as written between `${{` and `}}` (each part of a string with several separately). */
function expressionsOf(root) {
  const found = [];
  const visit = (token) => {
    if (isBasicExpression(token)) found.push(...(token.originalExpressions ?? [token]).map((e) => e.expression));
    else if (isMapping(token)) for (const { key, value } of token) [key, value].forEach(visit);
    else if (isSequence(token)) for (const item of token) visit(item);
  };
  if (root) visit(root);
  return found;
}

/** A workflow's text as GitHub reads it: the errors its parser reports, the expressions it evaluates, and the converted template. */
export async function readAsGithub(yamlText) {
  const parsed = parseWorkflow({ name: '.github/workflows/wave.yml', content: yamlText }, new NoOperationTraceWriter());
  const template = parsed.value ? await convertWorkflowTemplate(parsed.context, parsed.value) : undefined;
  const errors = [...parsed.context.errors.getErrors().map((e) => e.message), ...(template?.errors ?? []).map((e) => e.Message)];
  return { errors, expressions: expressionsOf(parsed.value), template };
}
