import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { THEMES, useTheme, type Theme } from '../theme/theme.ts';
import { MonitorIcon, MoonIcon, SunIcon } from './icons.tsx';

const THEME_ICONS: Record<Theme, ComponentType> = { light: SunIcon, dark: MoonIcon, system: MonitorIcon };

/** Three pressed/unpressed buttons rather than a cycling one: each choice is one click and named. */
export function ThemeToggle() {
  const { t } = useTranslation();
  const { theme, setTheme } = useTheme();
  return (
    <div className="segmented" role="group" aria-label={t('theme.label')} data-testid="theme-toggle">
      {THEMES.map((option) => {
        const ThemeIcon = THEME_ICONS[option];
        return (
          <button
            key={option}
            type="button"
            className="segmented__option segmented__option--icon"
            aria-pressed={theme === option}
            title={t(`theme.${option}`)}
            data-testid={`theme-option-${option}`}
            onClick={() => setTheme(option)}
          >
            <ThemeIcon />
            <span className="visually-hidden">{t(`theme.${option}`)}</span>
          </button>
        );
      })}
    </div>
  );
}
