import { getFormProps, useForm } from '@conform-to/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { PollEditor, type PollFields } from '~/components/poll-editor';
import { PollSchema } from '#contract/content-schemas';
import { parseForm } from '~/utils/form-schema';

const schema = z.object({ poll: z.prefault(PollSchema, { enabled: false, answers: [] }) });

function Harness({ defaultValue }: { defaultValue?: Omit<PollFields, 'enabled'> & { enabled?: string } }) {
  // The list intents run in the browser through onValidate, as on the post pages.
  const [form, fields] = useForm<{ poll: PollFields }>({
    id: 'post',
    defaultValue: { poll: defaultValue },
    onValidate: ({ formData }) => parseForm(formData, schema),
  });
  return (
    <form {...getFormProps(form)}>
      <PollEditor form={form} field={fields.poll} />
      <button type="submit">Publish</button>
    </form>
  );
}

const answerBoxes = () => screen.queryAllByRole('textbox', { name: /^Answer \d+$/ });

describe('poll editor', () => {
  it('turned on creates two empty answers', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.queryByRole('textbox', { name: 'Poll question' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Add a poll' }));
    expect(screen.getByRole('textbox', { name: 'Poll question' })).toHaveValue('');
    expect(answerBoxes()).toHaveLength(2);
    expect(answerBoxes().map((box) => (box as HTMLInputElement).value)).toEqual(['', '']);
    expect(answerBoxes().map((box) => box.getAttribute('name'))).toEqual(['poll.answers[0].text', 'poll.answers[1].text']);
    // Two is the minimum: nothing to remove yet.
    expect(screen.queryByRole('button', { name: /^Remove answer/ })).not.toBeInTheDocument();
  });

  it('turned off and on again keeps the answers typed', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const toggle = screen.getByRole('checkbox', { name: 'Add a poll' });
    await user.click(toggle);
    await user.type(answerBoxes()[0], 'Neon Vespers');
    await user.click(toggle);
    await user.click(toggle);
    expect(answerBoxes()).toHaveLength(2);
    expect(answerBoxes()[0]).toHaveValue('Neon Vespers');
  });

  it('adds answers up to 20, then disables adding; removing comes back down to 2', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('checkbox', { name: 'Add a poll' }));
    const add = screen.getByRole('button', { name: 'Add answer' });
    for (let i = 2; i < 20; i++) await user.click(add);
    expect(answerBoxes()).toHaveLength(20);
    expect(screen.getByText('20 of 20 answers')).toBeInTheDocument();
    expect(add).toBeDisabled();
    await user.click(add);
    expect(answerBoxes()).toHaveLength(20);

    await user.type(answerBoxes()[2], 'third');
    await user.click(screen.getByRole('button', { name: 'Remove answer 2' }));
    expect(answerBoxes()).toHaveLength(19);
    expect(answerBoxes()[1]).toHaveValue('third');
    expect(add).toBeEnabled();
    while (answerBoxes().length > 2) await user.click(screen.getByRole('button', { name: 'Remove answer 1' }));
    expect(screen.queryByRole('button', { name: /^Remove answer/ })).not.toBeInTheDocument();
  }, 30_000);

  it('keeps the answers an edited poll has, with their ids', () => {
    render(
      <Harness
        defaultValue={{
          enabled: 'on',
          title: 'Next single?',
          answers: [
            { id: 'a1', text: 'Yes' },
            { id: 'a2', text: 'No' },
            { id: 'a3', text: 'Maybe' },
          ],
        }}
      />,
    );
    expect(screen.getByRole('checkbox', { name: 'Add a poll' })).toBeChecked();
    expect(answerBoxes().map((box) => (box as HTMLInputElement).value)).toEqual(['Yes', 'No', 'Maybe']);
    const ids = [...document.querySelectorAll<HTMLInputElement>('input[type="hidden"][name$=".id"]')].map((input) => input.value);
    expect(ids).toEqual(['a1', 'a2', 'a3']);
    expect(within(screen.getByRole('list', { name: 'Answers' })).getAllByRole('button', { name: /^Remove answer/ })).toHaveLength(3);
  });

  it('takes an optional closing time as the schedule does, and refuses one that has passed', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('checkbox', { name: 'Add a poll' }));
    await user.type(screen.getByRole('textbox', { name: 'Poll question' }), 'Opener?');
    await user.type(answerBoxes()[0], 'Yes');
    await user.type(answerBoxes()[1], 'No');
    const date = screen.getByRole('textbox', { name: 'Closes on (DD/MM/YYYY)' });
    const time = screen.getByRole('textbox', { name: 'Closes at (HH:MM, GMT)' });
    expect(screen.getByRole('button', { name: 'Choose the closing date from the calendar' })).toBeInTheDocument();
    await user.type(date, '01012020');
    await user.type(time, '1830');
    expect(date).toHaveValue('01/01/2020');
    expect(time).toHaveValue('18:30');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(time).toHaveAccessibleDescription('Please choose a closing time in the future.');
    await user.clear(date);
    await user.type(date, '01012099');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(screen.queryByText('Please choose a closing time in the future.')).not.toBeInTheDocument();
  });

  it('keeps the closing time an edited poll has, even once it has passed', async () => {
    const user = userEvent.setup();
    const kept = '2020-01-01T18:30:00.000Z';
    render(
      <Harness
        defaultValue={{
          enabled: 'on',
          title: 'Opener?',
          answers: [{ text: 'Yes' }, { text: 'No' }],
          closeDate: '01/01/2020',
          closeTime: '18:30',
          closesKept: kept,
        }}
      />,
    );
    expect(document.querySelector<HTMLInputElement>('input[name="poll.closesKept"]')?.value).toBe(kept);
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(screen.queryByText('Please choose a closing time in the future.')).not.toBeInTheDocument();
    // Another time that has passed is not the one the poll has.
    const time = screen.getByRole('textbox', { name: 'Closes at (HH:MM, GMT)' });
    await user.clear(time);
    await user.type(time, '1700');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(time).toHaveAccessibleDescription('Please choose a closing time in the future.');
  });
});
