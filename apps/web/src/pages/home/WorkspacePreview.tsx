// The hero's auto-rotating demo of the dashboard (spec §2 "Home"): four views (overview,
// management, activity, workspace), one every 4 seconds. It pauses while the pointer is over it
// or keyboard focus is inside it, and never starts by itself when the reader asked for reduced
// motion; the pause button stops it for good. Built from markup so it stays sharp and translated.
// Tabs follow the WAI-ARIA tabs pattern: arrow keys, Home and End move and select.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isShipped, shippedList, type Needs } from '../../lib/features.ts';
import { PauseIcon, PlayIcon } from './demo-icons.tsx';

export const DEMO_TABS = ['overview', 'management', 'activity', 'workspace'] as const;
export type DemoTab = (typeof DEMO_TABS)[number];
export const DEMO_INTERVAL_MS = 4000;

/** False in the build's prerender; a visitor who prefers less motion is not hydrated (main.tsx). */
function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

export function WorkspacePreview() {
  const { t } = useTranslation();
  const id = useId();
  const [active, setActive] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  // Stopped by the button, or from the start when the reader prefers reduced motion.
  const [stopped, setStopped] = useState(prefersReducedMotion);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const rotating = !stopped && !hovered && !focused;

  useEffect(() => {
    if (!rotating) return;
    // Restarted whenever the view changes, so a chosen view also gets its full 4 seconds.
    const timer = window.setTimeout(
      () => setActive((index) => (index + 1) % DEMO_TABS.length),
      DEMO_INTERVAL_MS,
    );
    return () => window.clearTimeout(timer);
  }, [rotating, active]);

  const select = (index: number, focus: boolean) => {
    const next = (index + DEMO_TABS.length) % DEMO_TABS.length;
    setActive(next);
    if (focus) tabRefs.current[next]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const moves: Record<string, number> = {
      ArrowRight: active + 1,
      ArrowLeft: active - 1,
      Home: 0,
      End: DEMO_TABS.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    select(target, true);
  };

  const tab = DEMO_TABS[active] ?? 'overview';
  return (
    <section
      className="preview"
      aria-roledescription="carousel"
      aria-label={t('home.demo.label')}
      data-testid="home-demo"
      data-rotating={rotating}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
    >
      <div className="preview__window">
        <div className="preview__chrome">
          <span aria-hidden="true" />
          <span aria-hidden="true" />
          <span aria-hidden="true" />
          <div className="preview__tabs" role="tablist" aria-label={t('home.demo.tabs')}>
            {DEMO_TABS.map((name, index) => (
              <button
                key={name}
                ref={(element) => {
                  tabRefs.current[index] = element;
                }}
                type="button"
                role="tab"
                id={`${id}-tab-${name}`}
                aria-selected={index === active}
                aria-controls={`${id}-panel`}
                tabIndex={index === active ? 0 : -1}
                className="preview__tab"
                data-testid={`home-demo-tab-${name}`}
                data-analytics={`demo_tab:${name}`}
                onClick={() => select(index, false)}
                onKeyDown={onKeyDown}
              >
                {t(`home.demo.${name}`)}
              </button>
            ))}
          </div>
          <button
            type="button"
            className="preview__toggle"
            aria-label={stopped ? t('home.demo.play') : t('home.demo.pause')}
            title={stopped ? t('home.demo.play') : t('home.demo.pause')}
            data-testid="home-demo-toggle"
            onClick={() => setStopped((value) => !value)}
          >
            {stopped ? <PlayIcon /> : <PauseIcon />}
          </button>
        </div>
        <div
          className="preview__body"
          role="tabpanel"
          id={`${id}-panel`}
          aria-labelledby={`${id}-tab-${tab}`}
          // Announce a view only when the reader chose it, not every 4 seconds.
          aria-live={rotating ? 'off' : 'polite'}
          tabIndex={0}
          data-testid="home-demo-panel"
          data-tab={tab}
        >
          <DemoView tab={tab} />
        </div>
      </div>
    </section>
  );
}

function DemoView({ tab }: { tab: DemoTab }) {
  switch (tab) {
    case 'overview':
      return <OverviewView />;
    case 'management':
      return <ManagementView />;
    case 'activity':
      return <ActivityView />;
    case 'workspace':
      return <WorkspaceView />;
  }
}

function OverviewView() {
  const { t } = useTranslation();
  return (
    <>
      <div className="preview__head">
        <div>
          <p className="preview__name">{t('home.preview.workspace')}</p>
          <p className="preview__plan">{t('home.preview.plan')}</p>
        </div>
        <span className="badge badge--success">{t('home.preview.status')}</span>
      </div>
      <div className="preview__meters">
        <Meter label={t('home.preview.storage')} value={t('home.preview.storageUsed')} percent={37} />
        <Meter label={t('home.preview.users')} value={t('home.preview.usersUsed')} percent={80} />
      </div>
      <p className="preview__section">{t('home.preview.services')}</p>
      <Rows
        rows={[
          {
            needs: 'samba',
            row: [t('home.preview.samba'), <Status tone="ok">{t('home.preview.running')}</Status>],
          },
          {
            needs: 'vpn',
            row: [t('home.preview.vpn'), <Status tone="ok">{t('home.preview.connected')}</Status>],
          },
          {
            needs: 'backups',
            row: [t('home.preview.backups'), <Status tone="info">{t('home.preview.lastBackup')}</Status>],
          },
        ]}
      />
    </>
  );
}

function ManagementView() {
  const { t } = useTranslation();
  return (
    <>
      <div className="preview__head">
        <p className="preview__name">{t('home.demo.usersTitle')}</p>
        <span className="preview__fake-button" aria-hidden="true">
          {t('home.demo.addUser')}
        </span>
      </div>
      <Rows
        rows={[
          [t('home.demo.user1'), <span className="text-muted">{t('home.demo.user1Group')}</span>],
          [t('home.demo.user2'), <span className="text-muted">{t('home.demo.user2Group')}</span>],
          [t('home.demo.user3'), <span className="text-muted">{t('home.demo.user3Group')}</span>],
        ]}
      />
      <p className="preview__section">{t('home.demo.sharesTitle')}</p>
      <Rows
        rows={[
          [t('home.demo.share1'), <Status tone="ok">{t('home.demo.share1Access')}</Status>],
          [t('home.demo.share2'), <Status tone="info">{t('home.demo.share2Access')}</Status>],
        ]}
      />
    </>
  );
}

function ActivityView() {
  const { t } = useTranslation();
  return (
    <>
      <p className="preview__name">{t('home.demo.activityTitle')}</p>
      <Rows
        rows={[
          [<Status tone="ok">{t('home.demo.event1')}</Status>, t('home.demo.event1When')],
          [<Status tone="info">{t('home.demo.event2')}</Status>, t('home.demo.event2When')],
          {
            needs: 'backups',
            row: [<Status tone="ok">{t('home.demo.event3')}</Status>, t('home.demo.event3When')],
          },
          [<Status tone="ok">{t('home.demo.event4')}</Status>, t('home.demo.event4When')],
        ]}
      />
    </>
  );
}

function WorkspaceView() {
  const { t, i18n } = useTranslation();
  const protocols = shippedList(
    [
      { needs: 'nfs', text: t('home.demo.protocolParts.nfs') },
      { needs: 'ftp', text: t('home.demo.protocolParts.ftp') },
      { needs: 'vpn', text: t('home.demo.protocolParts.vpn') },
    ],
    i18n.language,
  );
  return (
    <>
      <div className="preview__head">
        <div>
          <p className="preview__name">{t('home.demo.filesTitle')}</p>
          <p className="preview__plan preview__mono">{t('home.demo.address')}</p>
        </div>
        <span className="badge badge--success">{t('home.preview.status')}</span>
      </div>
      <Rows
        rows={[
          [t('home.demo.folder1'), t('home.demo.folder1Size')],
          [t('home.demo.folder2'), t('home.demo.folder2Size')],
          [t('home.demo.folder3'), t('home.demo.folder3Size')],
        ]}
      />
      {protocols !== '' && <p className="preview__plan">{t('home.demo.protocols', { protocols })}</p>}
    </>
  );
}

type Row = [ReactNode, ReactNode];

/** A row, or a row about a feature, shown once the feature has shipped. */
function Rows({ rows }: { rows: (Row | { needs: Needs; row: Row })[] }) {
  const shown = rows.filter((row) => Array.isArray(row) || isShipped(row.needs));
  return (
    <ul className="preview__services">
      {shown
        .map((row) => (Array.isArray(row) ? row : row.row))
        .map(([label, value], index) => (
          <li key={index}>
            <span>{label}</span>
            <span>{value}</span>
          </li>
        ))}
    </ul>
  );
}

function Status({ tone, children }: { tone: 'ok' | 'info'; children: ReactNode }) {
  return <span className={`status status--${tone}`}>{children}</span>;
}

function Meter({ label, value, percent }: { label: string; value: string; percent: number }) {
  return (
    <div className="meter">
      <div className="meter__labels">
        <span>{label}</span>
        <span>{value}</span>
      </div>
      <div className="meter__track">
        <div className="meter__fill" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
