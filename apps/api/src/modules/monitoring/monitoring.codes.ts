// Sources and kinds of events are stored as small numbers: their place in the contract's lists
// (ACTIVITY_SOURCES, ACTIVITY_EVENT_KINDS), which only ever grow at the end, so a stored number
// keeps its meaning. An event of a kind this API does not know is not stored.
import {
  ACTIVITY_EVENT_KINDS,
  ACTIVITY_SOURCES,
  type ActivityEventKind,
  type ActivitySource,
} from '@debesis/contract';

const kindCodes = new Map<string, number>(ACTIVITY_EVENT_KINDS.map((kind, index) => [kind, index]));
const sourceCodes = new Map<string, number>(ACTIVITY_SOURCES.map((source, index) => [source, index]));

export function kindCode(kind: string): number | undefined {
  return kindCodes.get(kind);
}
export function sourceCode(source: ActivitySource): number {
  return sourceCodes.get(source)!;
}
export function kindOf(code: number): ActivityEventKind | undefined {
  return ACTIVITY_EVENT_KINDS[code];
}
export function sourceOf(code: number): ActivitySource | undefined {
  return ACTIVITY_SOURCES[code];
}
