import { isAlias, isMap, isScalar, isSeq, type Node } from 'yaml';
import type { SourceLocation } from '../../core/errors/errors.js';
import { positionAt, type YamlSource } from './yaml-source.js';

/** Finds where a value (or its key) sits in the YAML file, by its path in the parsed value. */
export interface Locator {
  /** Position of the value at `path`; falls back to its key, then to the nearest parent. Safe to pass around unbound. */
  locate: (path: readonly PropertyKey[]) => SourceLocation;
  /** Position of the key of the value at `path`; falls back like `locate`. */
  locateKey(path: readonly PropertyKey[]): SourceLocation;
}

type Ranged = Node & { range?: [number, number, number] | null };

/** Builds the locator of a parsed file. */
export function createLocator(source: YamlSource): Locator {
  const start = (node: Ranged | null | undefined): number | undefined => node?.range?.[0];

  /** Offsets of the deepest value and key reached along the path. */
  function walk(path: readonly PropertyKey[]): { value?: number; key?: number; complete: boolean } {
    let node = source.doc.contents as Ranged | null;
    let found: { value?: number; key?: number } = { value: start(node) };
    for (const segment of path) {
      if (isAlias(node)) node = (node.resolve(source.doc) as Ranged | undefined) ?? null;
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
        if (!pair) return { ...found, complete: false };
        const value = pair.value as Ranged | null;
        const key = start(pair.key as Ranged);
        found = { key, value: isEmptyScalar(value) ? key : (start(value) ?? key) };
        node = value;
      } else if (isSeq(node) && Number.isInteger(Number(segment))) {
        const item = node.items[Number(segment)] as Ranged | undefined;
        if (item === undefined) return { ...found, complete: false };
        found = { value: start(item) ?? found.value };
        node = item;
      } else {
        return { ...found, complete: false };
      }
    }
    return { ...found, complete: true };
  }

  const at = (offset: number | undefined): SourceLocation => (offset === undefined ? { file: source.file, line: 1, column: 1 } : positionAt(source, offset));

  return {
    locate: (path) => {
      const hit = walk(path);
      return at(hit.value ?? hit.key);
    },
    locateKey: (path) => {
      const hit = walk(path);
      return at(hit.complete ? (hit.key ?? hit.value) : (hit.value ?? hit.key));
    },
  };
}

/** `key:` with nothing after it: point at the key rather than at the end of the line. */
function isEmptyScalar(node: Ranged | null): boolean {
  return node === null || (isScalar(node) && node.value === null && node.source === '');
}
