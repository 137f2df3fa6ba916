import type { AttemptStep } from '../../plan/plan-types.js';
import { emit, type RunContext } from '../run/context.js';
import { MAX_SKIPPED_LISTED, readSubsetList, type SubsetCopy } from './mount-subset.js';
import type { PrepareWorkspaceOptions } from './workspace.js';

/** The step's `subset_from` lists, ready for prepareWorkspace, and `report()` to emit a `mount_subset` event per narrowed mount. */
export interface StepMountSubsets {
  options: Pick<PrepareWorkspaceOptions, 'subsets' | 'onSubset'>;
  report(): void;
}

/** Reads each mount's `subset_from` list from the run's saved artifacts before the workspace is made. */
export async function mountSubsets(context: RunContext, step: AttemptStep): Promise<StepMountSubsets> {
  const mounts = step.workspace.mount ?? [];
  if (!mounts.some((m) => m.subset_from !== undefined)) return { options: {}, report: () => undefined };
  const locate = (stepId: string, name: string) => context.store.savedArtifactPath(stepId, name);
  const lists = await Promise.all(mounts.map(async (m) => (m.subset_from === undefined ? undefined : readSubsetList(m.subset_from, locate))));
  const copies = new Map<number, SubsetCopy>();
  return {
    options: { subsets: lists.map((list) => (list && 'files' in list ? list.files : undefined)), onSubset: (index, copy) => copies.set(index, copy) },
    report: () =>
      mounts.forEach((mount, index) => {
        const list = lists[index];
        if (!list || mount.subset_from === undefined) return;
        const copy = copies.get(index) ?? { copied: 0, skipped: [] };
        emit(context, {
          type: 'mount_subset',
          stepId: step.id,
          source: mount.source,
          subsetFrom: mount.subset_from,
          copied: copy.copied,
          skipped: copy.skipped.slice(0, MAX_SKIPPED_LISTED),
          skippedTotal: copy.skipped.length,
          ...('fallback' in list ? { fallback: list.fallback } : {}),
        });
      }),
  };
}
