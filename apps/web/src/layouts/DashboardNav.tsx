import type { ParseKeys } from 'i18next';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { ActivityIcon, CardIcon, LayersIcon, ServerIcon, SettingsIcon } from '../components/icons.tsx';

const ITEMS: { to: string; label: ParseKeys; Icon: ComponentType }[] = [
  { to: '/dashboard/services', label: 'dashboard.services', Icon: ServerIcon },
  { to: '/dashboard/plans', label: 'dashboard.plans', Icon: LayersIcon },
  { to: '/dashboard/billing', label: 'dashboard.billing', Icon: CardIcon },
  { to: '/dashboard/settings', label: 'dashboard.settings', Icon: SettingsIcon },
  { to: '/dashboard/activity', label: 'dashboard.activity', Icon: ActivityIcon },
];

export function DashboardNav() {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('dashboard.navigation')} className="dashboard-nav">
      <ul role="list">
        {ITEMS.map(({ to, label, Icon }) => (
          <li key={to}>
            <NavLink to={to} className="dashboard-nav__link">
              <Icon />
              <span>{t(label)}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
