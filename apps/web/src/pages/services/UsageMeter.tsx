// A usage bar of the service overview (disk used of the plan's disk, active users of the plan's
// users): the figure in words and a bar that fills with it, amber from 75 % and red from 90 %.
// role="meter" with the figure as its value text, so a screen reader hears the words, not a %.
import { Bar } from './kit/Bar.tsx';
import './usage-meter.css';

export function usageTone(percent: number): 'ok' | 'high' | 'full' {
  if (percent >= 90) return 'full';
  if (percent >= 75) return 'high';
  return 'ok';
}

export function UsageMeter({
  label,
  text,
  used,
  total,
  testId,
}: {
  label: string;
  /** The figure in words ("1.2 GB of 50 GB"). */
  text: string;
  used: number;
  total: number;
  testId: string;
}) {
  const percent = total > 0 ? Math.min(100, Math.max(0, (used / total) * 100)) : 0;
  const tone = usageTone(percent);
  return (
    <span className="usage-meter">
      <span>{text}</span>
      <Bar
        role="meter"
        label={label}
        max={total}
        value={Math.min(used, total)}
        percent={percent}
        text={text}
        tone={tone}
        testId={testId}
      />
    </span>
  );
}
