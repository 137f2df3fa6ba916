/** An action a compiled workflow uses, pinned to the commit of one release tag. */
interface ActionPin {
  /** `owner/name@<40-hex commit>`: what `uses:` says, so a moved tag cannot change what runs. */
  readonly uses: string;
  /** The release tag that commit is, written beside it as a comment. */
  readonly version: string;
}

/** The actions a compiled workflow runs, each pinned to the commit of its release tag (read with `git rev-parse <tag>^{commit}`). */
export const ACTION_PINS = {
  checkout: { uses: 'actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1', version: 'v7.0.1' },
  setupNode: { uses: 'actions/setup-node@820762786026740c76f36085b0efc47a31fe5020', version: 'v7.0.0' },
  uploadArtifact: { uses: 'actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f', version: 'v7.0.0' },
  downloadArtifact: { uses: 'actions/download-artifact@3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c', version: 'v8.0.1' },
} as const satisfies Record<string, ActionPin>;

/** The release tag a pinned `uses:` value stands for, for the comment beside it; undefined for any other value. */
export function pinnedVersion(uses: string): string | undefined {
  return Object.values(ACTION_PINS).find((pin: ActionPin) => pin.uses === uses)?.version;
}
