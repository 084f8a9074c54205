import { getInputProps, useInputControl, type FieldMetadata, type FormMetadata } from '@conform-to/react';
import { useState, type ChangeEvent } from 'react';
import { POLL_ANSWERS_MAX, POLL_ANSWERS_MIN } from '#contract/content-rules';
import type { CheckboxInput } from '#contract/content-schemas';
import { CheckboxField, InputField } from './forms';
import { ErrorList } from './form-parts';
import { DateTimeInputs } from './schedule-widget';
import { useHydrated } from './use-hydrated';

export interface PollFields {
  enabled?: CheckboxInput;
  title?: string;
  answers?: { id?: string; text?: string }[];
  closeDate?: string;
  closeTime?: string;
  closesKept?: string;
}

const secondaryButton =
  'inline-flex items-center justify-center gap-2 rounded-full border border-white/30 px-4 py-2 text-sm font-semibold text-white ' +
  'hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent disabled:cursor-not-allowed disabled:opacity-50';

/**
 * The poll editor: on/off, the question, and 2–20 answers. Adding and removing answers are
 * conform's list intents on submit buttons, so they work without JavaScript (the action answers with the new list);
 * the form gives an empty poll its first two answers (post-form.tsx). With JavaScript turning the poll on creates two
 * empty answers when there are none, and turning it off hides the fields but keeps what was typed.
 */
export function PollEditor<Schema extends Record<string, unknown>>({
  form,
  field,
}: {
  form: FormMetadata<Schema, string[]>;
  field: FieldMetadata<PollFields | undefined, Schema, string[]>;
}) {
  const hydrated = useHydrated();
  const { enabled, title, answers, closeDate, closeTime, closesKept } = field.getFieldset();
  const [on, setOn] = useState(enabled.initialValue === 'on' || enabled.initialValue === 'true');
  const list = answers.getFieldList();

  function toggle(event: ChangeEvent<HTMLInputElement>) {
    const checked = event.currentTarget.checked;
    setOn(checked);
    if (checked && list.length === 0) form.update({ name: answers.name, value: [{ text: '' }, { text: '' }] });
  }

  return (
    <fieldset>
      <legend className="sr-only">Poll</legend>
      <div className="space-y-4">
        <CheckboxField field={enabled} label="Add a poll" inputProps={{ onChange: toggle }} />
        <div hidden={hydrated && !on} className="space-y-4 rounded-xl border border-white/15 p-4">
          <InputField field={title} label="Poll question" />
          <ol className="space-y-3" aria-label="Answers">
            {list.map((answer, index) => {
              const { id, text } = answer.getFieldset();
              const { key: idKey, ...idProps } = getInputProps(id, { type: 'hidden' });
              return (
                <li key={answer.key ?? answer.id} className="flex items-start gap-2">
                  <input key={idKey} {...idProps} />
                  <InputField className="flex-1" field={text} label={`Answer ${index + 1}`} />
                  {list.length > POLL_ANSWERS_MIN ? (
                    <button
                      {...form.remove.getButtonProps({ name: answers.name, index })}
                      className={`${secondaryButton} mt-7 h-11 w-11 shrink-0 px-0`}
                      aria-label={`Remove answer ${index + 1}`}
                    >
                      <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-5 w-5">
                        <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
                      </svg>
                    </button>
                  ) : null}
                </li>
              );
            })}
          </ol>
          <ErrorList id={answers.errorId} errors={answers.errors} />
          <div className="flex flex-wrap items-center gap-3">
            <button
              {...form.insert.getButtonProps({ name: answers.name, defaultValue: { text: '' } })}
              disabled={list.length >= POLL_ANSWERS_MAX}
              className={secondaryButton}
            >
              Add answer
            </button>
            <p className="text-sm text-white/70">
              {list.length} of {POLL_ANSWERS_MAX} answers
            </p>
          </div>
          <PollClosingFields date={closeDate} time={closeTime} kept={closesKept} hydrated={hydrated} />
        </div>
      </div>
    </fieldset>
  );
}

/**
 * The poll's optional closing time, written as the schedule's (DD/MM/YYYY with the same calendar, HH:MM in GMT):
 * both empty, the poll stays open. `kept` carries the closing time the poll has now through an edit, so a poll that
 * has closed can be edited without choosing a new one (the schema lets a passed time through only when it is that).
 */
function PollClosingFields<Schema extends Record<string, unknown>>({
  date,
  time,
  kept,
  hydrated,
}: {
  date: FieldMetadata<string | undefined, Schema, string[]>;
  time: FieldMetadata<string | undefined, Schema, string[]>;
  kept: FieldMetadata<string | undefined, Schema, string[]>;
  hydrated: boolean;
}) {
  const dateControl = useInputControl(date);
  const timeControl = useInputControl(time);
  const { key: keptKey, ...keptProps } = getInputProps(kept, { type: 'hidden' });
  // Labels unlike the schedule's ("Date (DD/MM/YYYY)"), so each field has a name of its own on the page.
  return (
    <fieldset className="space-y-3 border-t border-white/10 pt-4">
      <legend className="float-left text-base font-semibold text-white">Closing time (optional)</legend>
      <p className="clear-left text-sm text-white/70">
        Fans can vote, and change their vote, until then; after it the poll shows its final results. Leave both empty to keep the poll open.
      </p>
      <input key={keptKey} {...keptProps} />
      <DateTimeInputs
        date={date}
        time={time}
        dateControl={dateControl}
        timeControl={timeControl}
        labels={{ date: 'Closes on (DD/MM/YYYY)', time: 'Closes at (HH:MM, GMT)', calendar: 'Choose the closing date from the calendar' }}
        hydrated={hydrated}
      />
    </fieldset>
  );
}
