import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { addCommandTree, commandTree } from '../../src/cli/completion/command-tree.js';
import { buildProgram } from '../../src/cli/program.js';
import { runWave } from '../support/cli.js';

describe('the command tree completion is answered from', () => {
  it('rebuilds every command, argument, choice and option of the whole CLI as it was', async () => {
    const tree = commandTree(await buildProgram([], { verbs: COMMANDS.verbs }));
    expect(tree.map((node) => node.name)).toEqual(expect.arrayContaining(['run', 'status', 'replay', 'list', 'sandbox']));
    const run = tree.find((node) => node.name === 'run')!;
    expect(run.options).toContainEqual(expect.objectContaining({ flags: '--output <mode>', choices: ['auto', 'text', 'quiet', 'json'] }));
    expect(tree.find((node) => node.name === 'replay')!.commands.map((node) => node.name)).toEqual(['export']);
    const rebuilt = new Command('wave');
    addCommandTree(rebuilt, tree);
    expect(commandTree(rebuilt)).toEqual(tree);
  });

  it('answers `wave --help` and `wave -v` from the built CLI as the whole program does, and a mistyped verb with a suggestion', async () => {
    const program = await buildProgram([], COMMANDS);
    const help = await runWave(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.trimEnd()).toBe(program.helpInformation().trimEnd());
    expect((await runWave(['-v'])).stdout.trim()).toBe(program.version());
    const typo = await runWave(['statu']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('(Did you mean status?)');
  });
});
