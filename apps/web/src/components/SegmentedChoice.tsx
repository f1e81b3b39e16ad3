import type { ReactNode } from 'react';

interface SegmentedChoiceProps<T extends string> {
  options: readonly T[];
  value: T;
  onChange: (next: T) => void;
  /** The group's accessible name: a visible label's id, or a text. */
  labelledBy?: string;
  label?: string;
  testId: string;
  optionTestId: (option: T) => string;
  renderOption: (option: T) => ReactNode;
  optionClassName?: string;
  optionLang?: (option: T) => string;
  optionTitle?: (option: T) => string;
}

/** A row of mutually exclusive buttons (theme, language…): one pattern for every such choice. */
export function SegmentedChoice<T extends string>(props: SegmentedChoiceProps<T>) {
  return (
    <div
      className="segmented"
      role="group"
      {...(props.labelledBy ? { 'aria-labelledby': props.labelledBy } : { 'aria-label': props.label })}
      data-testid={props.testId}
    >
      {props.options.map((option) => (
        <button
          key={option}
          type="button"
          lang={props.optionLang?.(option)}
          title={props.optionTitle?.(option)}
          className={
            props.optionClassName ? `segmented__option ${props.optionClassName}` : 'segmented__option'
          }
          aria-pressed={props.value === option}
          data-testid={props.optionTestId(option)}
          onClick={() => props.onChange(option)}
        >
          {props.renderOption(option)}
        </button>
      ))}
    </div>
  );
}
