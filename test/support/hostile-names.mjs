// Names someone else chose (pipeline files a repository holds, lines a user types before Tab), in one place for the
// compile and completion tests and bench/attack-names.mjs. Every `touch` in them leaves a file named pwned-… or typed-….
import { readdirSync } from 'node:fs';

/** Pipeline file names GitHub would evaluate (`${{ … }}`), one it would reject (never closed), shell syntax and a line break. */
export const HOSTILE_WORKFLOW_FILES = [
  '${{ github.event.issue.title }}.yaml',
  'it\'s "${{ secrets.DEPLOY_KEY }}" `touch pwned` $(touch pwned).yaml',
  'open ${{ never closed.yaml',
  '}}${{${{ toJSON(github) }}.yaml',
  'line\nname: injected.yaml',
];

/** Pipeline names for completion, each starting with its own letter so that typing it completes that one alone. */
export const HOSTILE_PIPELINES = ['a$(touch pwned-a)', 'b`touch pwned-b`', 'c\'quote" and space', 'e;touch pwned-e;'];

/** A pipeline name with a line break: never offered (typing `d` completes nothing). */
export const LINE_BREAK_PIPELINE = 'd\n$(touch pwned-d)';

/** Lines a user may type before Tab, holding command substitutions a shell runs only if it evaluates the line. */
export const HOSTILE_LINES = [
  'wave logs $(touch typed-dollar) --step ',
  'wave logs `touch typed-tick` ',
  "wave status 'it''s $(touch typed-quoted)",
  'wave run (touch typed-paren) --steps ',
];

/** The files the `touch` of a hostile name or line left in `dir`. */
export const planted = (dir) => readdirSync(dir).filter((name) => /^(pwned|typed)/.test(name));
