/**
 * The stable prefix of a run, rebuilt from its stored layers, and where two prefixes part (02 doc: a
 * provider reuses the KV cache up to the first differing byte). The rebuild follows assemble.ts
 * (`stablePrefix` = L0–L3 texts joined by a blank line, plus a final newline); the page checks it
 * against the stored `stablePrefixHash` before trusting it.
 */
import type { LayerId, LayerResult } from '../../../domain/context';

const STABLE: readonly LayerId[] = ['L0', 'L1', 'L2', 'L3'];
const encoder = new TextEncoder();

/** A layer with nothing in it sends nothing, not even its separator (assemble.ts). */
const texts = (layers: readonly LayerResult[], ids: readonly LayerId[]) =>
  ids.map((id) => layers.find((l) => l.id === id)?.text ?? '').filter((t) => t !== '');

export function stablePrefixOf(layers: readonly LayerResult[]): string {
  return `${texts(layers, STABLE).join('\n\n')}\n`;
}

/** L4 and L5 texts: the part of the prompt that changes on every request. */
export function dynamicPartOf(layers: readonly LayerResult[]): string {
  return texts(layers, ['L4', 'L5']).join('\n\n');
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export interface PrefixComparison {
  same: boolean;
  /** UTF-8 byte offset of the first difference (null when identical). */
  byteOffset: number | null;
  /** The stable layer that offset falls in. */
  layer: LayerId | null;
  /** Bytes both prefixes share: what a prefix cache could reuse. */
  sharedBytes: number;
}

export function comparePrefixes(a: readonly LayerResult[], b: readonly LayerResult[]): PrefixComparison {
  const pa = encoder.encode(stablePrefixOf(a));
  const pb = encoder.encode(stablePrefixOf(b));
  const n = Math.min(pa.length, pb.length);
  let i = 0;
  while (i < n && pa[i] === pb[i]) i++;
  if (i === pa.length && i === pb.length) return { same: true, byteOffset: null, layer: null, sharedBytes: i };
  return { same: false, byteOffset: i, layer: layerAt(a, i), sharedBytes: i };
}

/** Which stable layer a byte offset of the prefix lies in (separators count with the layer before). */
function layerAt(layers: readonly LayerResult[], offset: number): LayerId {
  let end = 0;
  for (const id of STABLE) {
    const text = layers.find((l) => l.id === id)?.text ?? '';
    if (text === '') continue;
    end += encoder.encode(text).length + 2;
    if (offset < end) return id;
  }
  return 'L3';
}
