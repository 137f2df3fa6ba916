import * as core from '@actions/core';
import { MIN_SECRET_LENGTH } from '../redact.js';

/**
 * Registers each secret with the runner's log masking, in every form the run's redactor looks for: the value, its
 * URL-encoded form, and each line of a multi-line value (the runner masks line by line).
 */
export function maskSecrets(values: readonly string[]): void {
  const forms = new Set<string>();
  for (const value of values) {
    for (const form of [value, safeEncode(value)]) {
      for (const line of form.split(/\r?\n/)) if (line.length >= MIN_SECRET_LENGTH) forms.add(line);
    }
  }
  for (const form of forms) core.setSecret(form);
}

function safeEncode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    // A lone surrogate cannot be encoded, so it cannot appear encoded either.
    return value;
  }
}
