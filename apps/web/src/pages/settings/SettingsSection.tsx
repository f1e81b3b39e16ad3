// One section of the settings page: a card named by its heading, whose id is
// `settings-<name>-title`.
import type { ReactNode } from 'react';

export function SettingsSection({
  name,
  title,
  children,
}: {
  name: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section className="card settings-section" aria-labelledby={`settings-${name}-title`}>
      <h2 id={`settings-${name}-title`} className="settings-section__title">
        {title}
      </h2>
      {children}
    </section>
  );
}
