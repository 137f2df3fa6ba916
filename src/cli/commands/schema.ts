import type { Command } from 'commander';
import { WaveError } from '../../core/errors/errors.js';
import { isSchemaName, schemaFileText, schemaNames } from '../../schemas.js';

/** `wave schema <name>`: prints the JSON Schema of a format (for editors and other tools). */
export function registerSchema(program: Command): void {
  program
    .command('schema')
    .description(`Print the JSON Schema of a format: ${schemaNames().join(', ')}.`)
    .argument('<name>', 'which format')
    .action((name: string) => {
      if (!isSchemaName(name)) {
        throw new WaveError('invalid_argument', `no schema named \`${name}\``, {
          hint: `Name one of: ${schemaNames().join(', ')}.`,
        });
      }
      process.stdout.write(schemaFileText(name));
    });
}
