import { getFormProps, useForm } from '@conform-to/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CalendarGrid } from '~/components/schedule-calendar';
import { ScheduleWidget } from '~/components/schedule-widget';

/** The widget inside a conform form, as the post pages use it. */
function Harness({ defaultValue }: { defaultValue?: { enabled?: string; date?: string; time?: string } }) {
  const [form, fields] = useForm<{ schedule: { enabled?: boolean; date?: string; time?: string } }>({
    id: 'post',
    defaultValue: { schedule: defaultValue },
  });
  return (
    <form {...getFormProps(form)}>
      <ScheduleWidget field={fields.schedule} />
    </form>
  );
}

// Only Date is faked, so user-event's own timers keep running.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-06-17T13:45:00Z')); // a Wednesday
});
afterEach(() => vi.useRealTimers());

describe('schedule widget', () => {
  it('turned on with no values proposes 30 minutes from now in UTC', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const toggle = screen.getByRole('checkbox', { name: 'Schedule post' });
    expect(toggle).not.toBeChecked();
    expect(screen.queryByRole('textbox', { name: 'Date (DD/MM/YYYY)' })).not.toBeInTheDocument();
    await user.click(toggle);
    expect(screen.getByRole('textbox', { name: 'Date (DD/MM/YYYY)' })).toHaveValue('17/06/2026');
    expect(screen.getByRole('textbox', { name: 'Time (HH:MM, GMT)' })).toHaveValue('14:15');
  });

  it('crosses midnight and month ends in UTC for the default', async () => {
    vi.setSystemTime(new Date('2026-06-30T23:50:00Z'));
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('checkbox', { name: 'Schedule post' }));
    expect(screen.getByRole('textbox', { name: 'Date (DD/MM/YYYY)' })).toHaveValue('01/07/2026');
    expect(screen.getByRole('textbox', { name: 'Time (HH:MM, GMT)' })).toHaveValue('00:20');
  });

  it('turned off keeps the values, and on again does not replace them', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const toggle = screen.getByRole('checkbox', { name: 'Schedule post' });
    await user.click(toggle);
    const time = screen.getByRole('textbox', { name: 'Time (HH:MM, GMT)' });
    await user.clear(time);
    await user.type(time, '1830');
    expect(time).toHaveValue('18:30');
    await user.click(toggle);
    expect(screen.queryByRole('textbox', { name: 'Time (HH:MM, GMT)' })).not.toBeInTheDocument();
    expect(document.querySelector('input[name="schedule.time"]')).toHaveValue('18:30');
    await user.click(toggle);
    expect(screen.getByRole('textbox', { name: 'Time (HH:MM, GMT)' })).toHaveValue('18:30');
    expect(screen.getByRole('textbox', { name: 'Date (DD/MM/YYYY)' })).toHaveValue('17/06/2026');
  });

  it('takes digits only and puts in the separators', async () => {
    const user = userEvent.setup();
    render(<Harness defaultValue={{ enabled: 'on' }} />);
    const date = screen.getByRole('textbox', { name: 'Date (DD/MM/YYYY)' });
    await user.type(date, '0a1-0 82027');
    expect(date).toHaveValue('01/08/2027');
  });

  it('has a calendar whose weeks start on Monday, with past days disabled and the chosen day highlighted', async () => {
    const user = userEvent.setup();
    render(<Harness defaultValue={{ enabled: 'on', date: '19/06/2026', time: '10:00' }} />);
    await user.click(screen.getByRole('button', { name: 'Choose a date from the calendar' }));
    const grid = await screen.findByRole('table', { name: 'June 2026' });
    const headers = within(grid)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headers).toEqual(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su']);
    // 1 June 2026 is a Monday: the first cell of the first week.
    const firstRow = within(grid).getAllByRole('row')[1];
    expect(within(firstRow).getAllByRole('cell')[0]).toHaveTextContent('1');
    expect(within(grid).getByRole('button', { name: 'Tuesday 16 June 2026' })).toBeDisabled();
    expect(within(grid).getByRole('button', { name: 'Wednesday 17 June 2026' })).toBeEnabled();
    expect(within(grid).getByRole('button', { name: 'Friday 19 June 2026' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(grid).getByRole('button', { name: 'Thursday 18 June 2026' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'Previous month' })).toBeDisabled();

    await user.click(within(grid).getByRole('button', { name: 'Thursday 25 June 2026' }));
    expect(screen.getByRole('textbox', { name: 'Date (DD/MM/YYYY)' })).toHaveValue('25/06/2026');
  });

  it('closes the calendar on Escape (the focus back on its button), on a click outside, and once a day is picked', async () => {
    const user = userEvent.setup();
    render(<Harness defaultValue={{ enabled: 'on', date: '19/06/2026', time: '10:00' }} />);
    const opener = screen.getByRole('button', { name: 'Choose a date from the calendar' });
    expect(opener).toHaveAttribute('aria-expanded', 'false');

    await user.click(opener);
    expect(opener).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('button', { name: 'Friday 19 June 2026' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Calendar' })).not.toBeInTheDocument();
    expect(opener).toHaveFocus();

    await user.click(opener);
    await user.click(screen.getByRole('checkbox', { name: 'Schedule post' }).closest('form')!);
    expect(screen.queryByRole('group', { name: 'Calendar' })).not.toBeInTheDocument();

    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'Monday 22 June 2026' }));
    expect(screen.queryByRole('group', { name: 'Calendar' })).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Date (DD/MM/YYYY)' })).toHaveValue('22/06/2026');
    expect(opener).toHaveFocus();
  });

  it('moves between months', async () => {
    const user = userEvent.setup();
    render(<CalendarGrid value={undefined} onChange={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Next month' }));
    const july = screen.getByRole('table', { name: 'July 2026' });
    // 1 July 2026 is a Wednesday: two empty cells before it.
    const cells = within(within(july).getAllByRole('row')[1]).getAllByRole('cell');
    expect(cells[0]).toBeEmptyDOMElement();
    expect(cells[1]).toBeEmptyDOMElement();
    expect(cells[2]).toHaveTextContent('1');
    expect(within(july).getByRole('button', { name: 'Wednesday 1 July 2026' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Previous month' }));
    expect(screen.getByRole('table', { name: 'June 2026' })).toBeInTheDocument();
  });

  it('has a year picker of 4 columns over 12 years, disabling years outside the 12-year range', async () => {
    const user = userEvent.setup();
    const picked: string[] = [];
    render(<CalendarGrid value={undefined} onChange={(value) => picked.push(value)} />);
    await user.click(screen.getByRole('button', { name: 'June 2026: choose a year' }));
    const group = screen.getByRole('group');
    expect(group).toHaveClass('grid-cols-4');
    const years = within(group).getAllByRole('button');
    expect(years).toHaveLength(12);
    expect(within(group).getByRole('button', { name: '2025' })).toBeDisabled();
    expect(within(group).getByRole('button', { name: '2026' })).toBeEnabled();
    expect(within(group).getByRole('button', { name: '2026' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Earlier years' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Later years' }));
    expect(within(screen.getByRole('group')).getByRole('button', { name: '2037' })).toBeEnabled();
    expect(within(screen.getByRole('group')).getByRole('button', { name: '2038' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Later years' })).toBeDisabled();

    await user.click(within(screen.getByRole('group')).getByRole('button', { name: '2030' }));
    const june2030 = screen.getByRole('table', { name: 'June 2030' });
    await user.click(within(june2030).getByRole('button', { name: 'Monday 3 June 2030' }));
    expect(picked).toEqual(['03/06/2030']);
  });
});
