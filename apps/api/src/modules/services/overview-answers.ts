// The services overview's answer of each account, kept to be served again. The dashboard asks for
// it first and often; most of those requests find the account's services as they were. Its
// statement still checks the session and reads the version of the account's rows on every request
// (services.queries.ts listUnlessKnown), and leaves the list out when the version is the kept one:
// the database then neither builds nor sends it, and nothing here parses or presents it again.
//
// A kept answer is served again only while it is exactly what presenting the rows afresh would
// answer: the same rows (the version), the same plan names (the catalogue's copy, asked each time)
// and the same fields that move with the clock (overviewTimedFields, the only part of an item given
// the time, worked out each time). It is frozen, so the route's serializer writes its bytes once
// (http/contract-serializer.ts keptAnswerSerializer).
import type { ServiceFeatureCounts, ServiceOverviewItem } from '@debesis/contract';
import {
  NO_COUNTS,
  overviewTimedFields,
  presentOverviewItem,
  sameTimedFields,
  type OverviewTimedFields,
} from './services.presenter.ts';
import type { ServiceListRow } from './services.queries.ts';

export interface OverviewAnswer {
  services: ServiceOverviewItem[];
}

/** Accounts whose answers are kept at most; then they start over (cheaper than tracking use). */
export const OVERVIEW_ANSWERS_MAX = 2_000;

interface Kept {
  accountId: string;
  /** The version of the account's rows the answer was presented from. */
  version: string;
  rows: ServiceListRow[];
  names: Map<string, string>;
  counts: Map<string, ServiceFeatureCounts>;
  timed: OverviewTimedFields[];
  answer: OverviewAnswer;
}

export type KeptOverview = Readonly<Kept>;

function sameNames(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [productId, name] of a) if (b.get(productId) !== name) return false;
  return true;
}

function frozen(answer: OverviewAnswer): OverviewAnswer {
  for (const item of answer.services) {
    Object.freeze(item.actions);
    Object.freeze(item);
  }
  Object.freeze(answer.services);
  return Object.freeze(answer);
}

export function createOverviewAnswers(
  deps: {
    planNames: (rows: ServiceListRow[]) => Promise<Map<string, string>>;
    counts: (rows: ServiceListRow[]) => Promise<Map<string, ServiceFeatureCounts>>;
    /** The standbys' node names (node id → name); absent: shown without a name. */
    nodeNames?: (rows: ServiceListRow[]) => Promise<Map<string, string>>;
    now: () => Date;
  },
  max = OVERVIEW_ANSWERS_MAX,
) {
  const kept = new Map<string, Kept>();

  return {
    /** The answer kept for the account, with the version of its rows. */
    kept(accountId: string): KeptOverview | undefined {
      return kept.get(accountId);
    },

    /**
     * The account's answer from its rows read at `version`, or from a kept answer whose rows are
     * still the account's (its version read again): the kept answer itself when nothing it shows
     * has changed, else presented afresh and kept.
     */
    async answer(
      accountId: string,
      read: KeptOverview | { version: string; rows: ServiceListRow[] },
    ): Promise<OverviewAnswer> {
      const { version, rows } = read;
      const names = await deps.planNames(rows);
      const now = deps.now();
      const timed = rows.map((row) => overviewTimedFields(row, now));
      const before = 'answer' in read ? read : undefined;
      if (
        before &&
        sameNames(before.names, names) &&
        timed.every((fields, index) => sameTimedFields(fields, before.timed[index] as OverviewTimedFields))
      )
        return before.answer;
      // The same rows keep their counts: they change only with a service's generation.
      const counts = before?.counts ?? (await deps.counts(rows));
      // Node names hardly ever change; a rename shows once the rows change.
      const nodeNames = (await deps.nodeNames?.(rows)) ?? new Map<string, string>();
      const answer = frozen({
        services: rows.map((row, index) =>
          presentOverviewItem(
            row,
            names.get(row.productId) ?? row.productId,
            counts.get(row.id) ?? NO_COUNTS,
            timed[index] as OverviewTimedFields,
            (row.standbyNodeId && nodeNames.get(row.standbyNodeId)) ?? null,
          ),
        ),
      });
      if (kept.size >= max && !kept.has(accountId)) kept.clear();
      kept.set(accountId, { accountId, version, rows, names, counts, timed, answer });
      return answer;
    },
  };
}
