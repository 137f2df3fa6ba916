import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The user a sandboxed step runs as when Wave runs as root: unprivileged inside, mapped back to root outside. */
export const SANDBOX_USER = { uid: 1000, gid: 1000 } as const;

/** Writes passwd and group files naming the sandbox's user (programs such as git and ssh look themselves up). */
export async function writeIdentityFiles(dir: string, uid: number, gid: number, home: string): Promise<{ passwd: string; group: string }> {
  const passwd = join(dir, 'passwd');
  const group = join(dir, 'group');
  await writeFile(passwd, `root:x:0:0:root:/root:/bin/sh\nwave:x:${uid}:${gid}:wave:${home}:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n`);
  await writeFile(group, `root:x:0:\nwave:x:${gid}:\nnogroup:x:65534:\n`);
  return { passwd, group };
}
