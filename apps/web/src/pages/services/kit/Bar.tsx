// A bar that fills with a share of something, named for screen readers with the figure in words
// (`aria-valuetext`), so they hear the words, not a percentage: the overview's usage (a meter,
// amber when high, red when full) and a running backup's progress (a progress bar that glides).
import './bar.css';

export type BarTone = 'ok' | 'high' | 'full' | 'progress';

export function Bar({
  role,
  label,
  max,
  value,
  percent,
  text,
  tone,
  testId,
}: {
  role: 'meter' | 'progressbar';
  label: string;
  max: number;
  value: number;
  /** How much of the width is filled, 0 to 100. */
  percent: number;
  /** The figure in words ("1.2 GB of 50 GB"). */
  text: string;
  tone: BarTone;
  testId: string;
}) {
  return (
    <span
      className="bar"
      role={role}
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      aria-valuetext={text}
      data-testid={testId}
      data-tone={tone}
    >
      <span className={`bar__fill bar__fill--${tone}`} style={{ width: `${percent}%` }} />
    </span>
  );
}
