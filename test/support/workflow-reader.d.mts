import type { WorkflowTemplate } from '@actions/workflow-parser';

/** A workflow's text as GitHub reads it: the errors its parser reports, the expressions it evaluates, and the converted template. */
export declare function readAsGithub(yamlText: string): Promise<{ errors: string[]; expressions: string[]; template: WorkflowTemplate | undefined }>;
