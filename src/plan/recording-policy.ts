import type { Manifest } from '../config/schema/manifest-schema.js';
import type { RecordingPolicy } from './plan-types.js';

const MIB = 1024 * 1024;
/** A changed file larger than this many MiB is listed as omitted rather than kept. */
export const DEFAULT_RECORDING_FILE_MB = 8;
/** One attempt keeps at most this many MiB of changed-file content. */
export const DEFAULT_RECORDING_ATTEMPT_MB = 64;

/** runtime.recording resolved: on, with its caps in bytes, unless the manifest says otherwise. */
export function resolveRecordingPolicy(runtime: Manifest['runtime']): RecordingPolicy {
  const recording = runtime?.recording;
  return {
    enabled: recording?.enabled ?? true,
    maxFileBytes: Math.floor((recording?.max_file_mb ?? DEFAULT_RECORDING_FILE_MB) * MIB),
    maxAttemptBytes: Math.floor((recording?.max_attempt_mb ?? DEFAULT_RECORDING_ATTEMPT_MB) * MIB),
  };
}

/** The plan's recording policy, or the defaults for a plan made without one. */
export function recordingPolicyOf(runtime: { readonly recording?: RecordingPolicy }): RecordingPolicy {
  return runtime.recording ?? resolveRecordingPolicy(undefined);
}
