import { useInputControl, type FieldMetadata } from '@conform-to/react';
import { useState, type ChangeEvent } from 'react';
import { defaultSchedule } from '#contract/content-rules';
import type { CheckboxInput } from '#contract/content-schemas';
import { CheckboxField, InputField } from './forms';
import { Calendar } from './schedule-calendar';
import { useHydrated } from './use-hydrated';

export interface ScheduleFields {
  enabled?: CheckboxInput;
  date?: string;
  time?: string;
}

/** DD/MM/YYYY as the artist types it: digits only, the slashes put in as the digits come. */
export function maskDate(text: string) {
  const digits = text.replace(/\D/g, '').slice(0, 8);
  return [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4)].filter(Boolean).join('/');
}

/** HH:MM, digits only. */
export function maskTime(text: string) {
  const digits = text.replace(/\D/g, '').slice(0, 4);
  return [digits.slice(0, 2), digits.slice(2)].filter(Boolean).join(':');
}

/**
 * The post scheduling widget. Without JavaScript it is a checkbox and two text inputs, which the
 * action validates. With JavaScript the inputs show only while "Schedule post" is on; turning it on with empty
 * inputs proposes 30 minutes from now (UTC); turning it off keeps the values (the schema then skips them); and a
 * calendar (weeks from Monday, past days disabled) with a year picker fills the date.
 */
export function ScheduleWidget<Schema extends Record<string, unknown>>({
  field,
}: {
  field: FieldMetadata<ScheduleFields | undefined, Schema, string[]>;
}) {
  const hydrated = useHydrated();
  const { enabled, date, time } = field.getFieldset();
  const [on, setOn] = useState(enabled.initialValue === 'on' || enabled.initialValue === 'true');
  const dateControl = useInputControl(date);
  const timeControl = useInputControl(time);

  function toggle(event: ChangeEvent<HTMLInputElement>) {
    const checked = event.currentTarget.checked;
    setOn(checked);
    if (checked && !dateControl.value && !timeControl.value) {
      const proposal = defaultSchedule(new Date());
      dateControl.change(proposal.date);
      timeControl.change(proposal.time);
    }
  }

  return (
    <fieldset>
      <legend className="sr-only">Scheduling</legend>
      <div className="space-y-4">
        <CheckboxField field={enabled} label="Schedule post" inputProps={{ onChange: toggle }} />
        {!hydrated ? (
          <p className="text-sm text-white/70">Tick it to publish at a later date and time (GMT), at least 10 minutes from now.</p>
        ) : null}
        <div hidden={hydrated && !on}>
          <DateTimeInputs
            date={date}
            time={time}
            dateControl={dateControl}
            timeControl={timeControl}
            labels={{ date: 'Date (DD/MM/YYYY)', time: 'Time (HH:MM, GMT)' }}
            hydrated={hydrated}
          />
        </div>
      </div>
    </fieldset>
  );
}

/** What DateTimeInputs needs of a conform input control. */
interface TextControl {
  value: string | undefined;
  change: (value: string) => void;
  blur: () => void;
}

/**
 * A date (DD/MM/YYYY, masked as typed, with the calendar once hydrated) and a time (HH:MM, GMT) side by side: the
 * schedule's and the poll's closing time. The controls are the caller's, who may fill them in (a proposed time).
 */
export function DateTimeInputs<Schema extends Record<string, unknown>>({
  date,
  time,
  dateControl,
  timeControl,
  labels,
  hydrated,
}: {
  date: FieldMetadata<string | undefined, Schema, string[]>;
  time: FieldMetadata<string | undefined, Schema, string[]>;
  dateControl: TextControl;
  timeControl: TextControl;
  labels: { date: string; time: string; calendar?: string };
  hydrated: boolean;
}) {
  const typed = { inputMode: 'numeric', autoComplete: 'off' } as const;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <InputField
        field={date}
        label={labels.date}
        inputProps={{
          ...typed,
          value: dateControl.value ?? '',
          onChange: (event) => dateControl.change(maskDate(event.currentTarget.value)),
          onBlur: dateControl.blur,
          placeholder: 'DD/MM/YYYY',
          maxLength: 10,
        }}
        addon={
          hydrated ? <Calendar label={labels.calendar} value={dateControl.value} onChange={(value) => dateControl.change(value)} /> : null
        }
      />
      <InputField
        field={time}
        label={labels.time}
        inputProps={{
          ...typed,
          value: timeControl.value ?? '',
          onChange: (event) => timeControl.change(maskTime(event.currentTarget.value)),
          onBlur: timeControl.blur,
          placeholder: 'HH:MM',
          maxLength: 5,
        }}
      />
    </div>
  );
}
