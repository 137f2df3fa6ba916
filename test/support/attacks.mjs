// The attacks of the containment tests and bench/attack.mjs, in one place.

/** What an attacker puts in --input, an issue, or an earlier step's output. */
export const PAYLOADS = [
  '$(touch PWNED)',
  '`touch PWNED`',
  "'; touch PWNED; '",
  '"; touch PWNED; "',
  'fine\ntouch PWNED\n',
  'EOF\n$(touch PWNED)\nEOF\ntouch PWNED',
  '`;touch PWNED;`',
  "'`;touch PWNED;`'",
  '{{ input }} {{ steps.gen.output }} $(touch PWNED)',
  '"$WAVE_VALUE_1" $WAVE_VALUE_2 ${WAVE_VALUE_1} $(touch PWNED)',
];

/** Templates inside quotes or a heredoc of a command: what validate refuses, and what must stay inert if run anyway. */
export const QUOTED_TEMPLATES = [
  'echo "{{ input }}" > got',
  "echo '{{ input }}' > got",
  'echo "before {{ steps.gen.output }} after" > got',
  'x="$(echo "{{ input }}")"; echo "$x" > got',
  'cat <<EOF > got\n{{ input }}\nEOF',
  "cat <<'EOF' > got\n{{ steps.gen.output }}\nEOF",
];

// Replaces `<dir>/d` by a symlink to `folder`, then to /etc, as fast as it can: each swap is an atomic rename.
export const FLIPPER = `
const { symlinkSync, renameSync, rmSync } = require('node:fs');
const [dir] = process.argv.slice(1);
const tmp = dir + '/.flip-' + process.pid;
for (;;) {
  for (const target of ['folder', '/etc']) {
    rmSync(tmp, { force: true });
    symlinkSync(target, tmp);
    renameSync(tmp, dir + '/d');
  }
}`;

// Opens `count` connections to the egress proxy's socket inside a sandbox, 500 at a time, and holds them `holdMs`
// (default 500); prints how many it opened, how many the proxy closed under it and how many failed, then exits 0.
export const FLOODER = `
const net = require('node:net');
const [count, holdMs = 500] = process.argv.slice(1).map(Number);
const held = [];
let failed = 0;
const one = () => new Promise((done) => {
  const socket = net.connect('/run/wave/proxy.sock');
  socket.once('connect', () => { held.push(socket); done(); });
  socket.once('error', () => { failed++; done(); });
});
(async () => {
  for (let i = 0; i < count; i += 500) await Promise.all(Array.from({ length: Math.min(500, count - i) }, one));
  await new Promise((done) => setTimeout(done, holdMs));
  console.log('flood: opened ' + held.length + ', closed by the proxy ' + held.filter((s) => s.destroyed).length + ', failed ' + failed);
  process.exit(0);
})();`;
