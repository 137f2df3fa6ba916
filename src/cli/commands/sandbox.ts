import type { Command } from 'commander';
import { DEFAULT_SANDBOX_IMAGE } from '../../sandbox/defaults.js';

/** `wave sandbox image [--tag T]`: builds the docker sandbox's host-shim image locally, without a registry. */
export function registerSandbox(program: Command): void {
  const sandbox = program.command('sandbox').description('Prepare the step sandbox.');
  sandbox
    .command('image')
    .description("Build the docker sandbox image (a ~10 KB shim over the host's /usr) and tag it; never pulls.")
    .option('-t, --tag <tag>', 'the image name and tag', DEFAULT_SANDBOX_IMAGE)
    .action(async (flags: { tag: string }) => {
      // Loaded here, not at the top: `wave --help` registers every command and must not load dockerode.
      const { buildSandboxImage, dockerClient } = await import('../../sandbox/docker/docker-image.js');
      const id = await buildSandboxImage(dockerClient(), flags.tag);
      process.stdout.write(`built ${flags.tag} (${id.replace(/^sha256:/, '').slice(0, 12)})\n`);
    });
}
