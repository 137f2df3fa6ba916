import type { Plan } from '../plan/plan-types.js';

/** Removes the containers a killed run left behind, when its steps ran in Docker. */
export async function removeOrphanedContainers(plan: Plan, runId: string): Promise<void> {
  if (plan.runtime.sandbox.backend !== 'docker') return;
  const [{ dockerClient }, { removeRunContainers }] = await Promise.all([import('../sandbox/docker/docker-image.js'), import('../sandbox/docker/docker.js')]);
  await removeRunContainers(dockerClient(), runId);
}
