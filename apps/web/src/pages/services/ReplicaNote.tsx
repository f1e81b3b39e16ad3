// The service's second copy on another node (issue 37, contract replicas.ts), in one line wherever
// the services list and a service's overview show its state: nothing without one; "Second copy on
// node-b: in sync 12 seconds ago" with the date and time on hover; "being made" while the first copy
// travels; a warning tone once it is behind. The API decides the state; the line only says it.
import type { ReplicaState, ServiceReplica } from '@debesis/contract';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import '../../i18n/workspace-messages.ts';
import { RelativeTime, useNow } from './kit/RelativeTime.tsx';

/** The copy trails its service by seconds (it syncs every 30 s): the line counts them. */
const TICK_MS = 1_000;

/**
 * Where the translated sentence puts the time: the sentence is split there and a `<time>` put in
 * its place, so each language orders its words and the time still carries its date.
 */
const WHEN = '\u2063when\u2063';

type ShownState = Exclude<ReplicaState, 'none'>;

/** Each state's sentence once the copy has been in sync, and before it ever was. */
const SENTENCES: Record<ShownState, Record<'synced' | 'never', ParseKeys<'workspace'>>> = {
  in_sync: { synced: 'replica.inSync', never: 'replica.inSyncUnknown' },
  // While the first copy travels, the age of what arrived says nothing yet.
  syncing: { synced: 'replica.syncing', never: 'replica.syncing' },
  behind: { synced: 'replica.behind', never: 'replica.behindNever' },
};

export function ReplicaNote({ replica, testId }: { replica: ServiceReplica; testId: string }) {
  if (replica.state === 'none') return null;
  return <ShownReplicaNote replica={replica} state={replica.state} testId={testId} />;
}

function ShownReplicaNote({
  replica,
  state,
  testId,
}: {
  replica: ServiceReplica;
  state: ShownState;
  testId: string;
}) {
  const { t } = useTranslation('workspace');
  const now = useNow(TICK_MS);
  const place =
    replica.node === null ? t('replica.placeUnknown') : t('replica.place', { node: replica.node });
  const at = replica.last_in_sync_at;
  const key = SENTENCES[state][at === null ? 'never' : 'synced'];
  // `after` is there only when the sentence has a place for the time.
  const [before, after] = t(key, { place, when: WHEN }).split(WHEN);
  return (
    <p
      className={`service-note replica-note ${state === 'behind' ? 'replica-note--behind' : 'text-muted'}`}
      data-testid={testId}
      data-replica-state={state}
    >
      {before}
      {at !== null && after !== undefined && (
        <>
          <RelativeTime at={at} now={now} justNow={t('replica.justNow')} seconds />
          {after}
        </>
      )}
    </p>
  );
}
