/** A GitHub job id: a letter or `_` first, then letters, digits, `-` and `_`. */
const JOB_ID = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** A step id made a job id: `.` becomes `_`, a leading digit or `-` gets `step-` before it. */
function safeJobId(stepId: string): string {
  const id = stepId.replace(/[^A-Za-z0-9_-]/g, '_');
  return JOB_ID.test(id) ? id : `step-${id}`;
}

/** The job id of each step, unique among them and `reserved` (a clash gets `-2`, `-3`…). */
export function jobIdsOf(stepIds: readonly string[], reserved: readonly string[] = []): Map<string, string> {
  const taken = new Set(reserved.map((r) => r.toLowerCase()));
  const ids = new Map<string, string>();
  for (const stepId of stepIds) {
    const base = safeJobId(stepId);
    let id = base;
    // GitHub compares job ids without case.
    for (let n = 2; taken.has(id.toLowerCase()); n++) id = `${base}-${n}`;
    taken.add(id.toLowerCase());
    ids.set(stepId, id);
  }
  return ids;
}
