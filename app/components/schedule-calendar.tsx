import { useEffect, useId, useRef, useState } from 'react';
import { formatScheduleDate, parseScheduleDate, type CalendarDate } from '#contract/content-rules';

/** The year picker's default range. */
export const YEAR_RANGE = 12;
const WEEKDAYS = [
  ['Mo', 'Monday'],
  ['Tu', 'Tuesday'],
  ['We', 'Wednesday'],
  ['Th', 'Thursday'],
  ['Fr', 'Friday'],
  ['Sa', 'Saturday'],
  ['Su', 'Sunday'],
] as const;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const utcToday = (now: Date): CalendarDate => ({ day: now.getUTCDate(), month: now.getUTCMonth() + 1, year: now.getUTCFullYear() });
const dayNumber = ({ year, month, day }: CalendarDate) => Date.UTC(year, month - 1, day) / 86_400_000;

const navButton =
  'rounded-full p-2 text-white hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent disabled:cursor-not-allowed disabled:opacity-30';

interface CalendarProps {
  value: string | undefined;
  onChange: (value: string) => void;
  now?: () => Date;
  yearRange?: number;
}

/**
 * The calendar behind the date input: a button that opens a panel with a month grid and a year picker. The panel
 * closes on Escape (the focus back on the button), on a click or focus outside it, and once a day is picked.
 * Written here rather than with Headless UI's Popover: that one brings Floating UI along (about 28 KB of the post
 * form's JavaScript) for a panel that is placed by CSS under its button.
 */
export function Calendar({
  value,
  onChange,
  now = () => new Date(),
  yearRange = YEAR_RANGE,
  label = 'Choose a date from the calendar',
}: CalendarProps & { label?: string }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const outside = (event: Event) => {
      if (event.target instanceof Node && !root.current?.contains(event.target)) setOpen(false);
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('focusin', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('focusin', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);

  return (
    <div ref={root} className="relative">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((wasOpen) => !wasOpen)}
        className="flex h-full items-center rounded-lg border border-white/25 bg-white/5 px-3 text-white hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
      >
        <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-5 w-5">
          <path
            fillRule="evenodd"
            d="M5.75 2a.75.75 0 0 1 .75.75V4h7V2.75a.75.75 0 0 1 1.5 0V4h.25A2.75 2.75 0 0 1 18 6.75v8.5A2.75 2.75 0 0 1 15.25 18H4.75A2.75 2.75 0 0 1 2 15.25v-8.5A2.75 2.75 0 0 1 4.75 4H5V2.75A.75.75 0 0 1 5.75 2Zm-1 5.5c-.69 0-1.25.56-1.25 1.25v6.5c0 .69.56 1.25 1.25 1.25h10.5c.69 0 1.25-.56 1.25-1.25v-6.5c0-.69-.56-1.25-1.25-1.25H4.75Z"
            clipRule="evenodd"
          />
        </svg>
        <span className="sr-only">{label}</span>
      </button>
      {/* In the page's flow under its button (not in a portal at the end of the body, outside the page's landmarks);
          the grid takes the focus as it opens. */}
      {open ? (
        <div
          id={panelId}
          role="group"
          aria-label="Calendar"
          className="absolute right-0 top-full z-40 mt-2 w-[18.5rem] rounded-xl bg-navy-light p-3 shadow-xl ring-1 ring-white/15"
        >
          <CalendarGrid
            value={value}
            now={now}
            yearRange={yearRange}
            onChange={(picked) => {
              onChange(picked);
              setOpen(false);
              button.current?.focus();
            }}
          />
        </div>
      ) : null}
    </div>
  );
}

/** The month grid (weeks from Monday, past days disabled, the selected day highlighted) and the year picker. */
export function CalendarGrid({ value, onChange, now = () => new Date(), yearRange = YEAR_RANGE }: CalendarProps) {
  const today = utcToday(now());
  const selected = parseScheduleDate(value);
  const minYear = today.year;
  const maxYear = today.year + yearRange - 1;
  const start = selected && selected.year >= minYear && selected.year <= maxYear ? selected : today;
  const [view, setView] = useState({ year: start.year, month: start.month });
  const [picking, setPicking] = useState(false);
  // Opening the calendar puts the focus on the chosen day (else today, else the first day that can be chosen).
  const grid = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const days = grid.current?.querySelectorAll<HTMLButtonElement>('td button:not(:disabled)');
    (grid.current?.querySelector<HTMLButtonElement>('[data-autofocus]') ?? days?.[0])?.focus();
  }, []);

  if (picking) {
    return (
      <YearPicker
        year={view.year}
        minYear={minYear}
        maxYear={maxYear}
        onPick={(year) => {
          const month = year === today.year ? Math.max(view.month, today.month) : view.month;
          setView({ year, month });
          setPicking(false);
        }}
      />
    );
  }

  const firstWeekday = (new Date(Date.UTC(view.year, view.month - 1, 1)).getUTCDay() + 6) % 7;
  const days = new Date(Date.UTC(view.year, view.month, 0)).getUTCDate();
  const cells: (number | null)[] = [...Array<null>(firstWeekday).fill(null), ...Array.from({ length: days }, (_, i) => i + 1)];
  while (cells.length % 7) cells.push(null);
  const weeks = Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
  const atFirstMonth = view.year < today.year || (view.year === today.year && view.month <= today.month);
  const atLastMonth = view.year > maxYear || (view.year === maxYear && view.month === 12);
  const step = (delta: number) =>
    setView(({ year, month }) => {
      const index = year * 12 + (month - 1) + delta;
      return { year: Math.floor(index / 12), month: (index % 12) + 1 };
    });

  return (
    <div ref={grid}>
      <div className="mb-2 flex items-center justify-between gap-2">
        <button type="button" className={navButton} onClick={() => step(-1)} disabled={atFirstMonth} aria-label="Previous month">
          <Chevron direction="left" />
        </button>
        <button
          type="button"
          onClick={() => setPicking(true)}
          className="rounded-full px-3 py-1.5 text-base font-semibold text-white hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
          aria-label={`${MONTHS[view.month - 1]} ${view.year}: choose a year`}
        >
          {MONTHS[view.month - 1]} {view.year}
        </button>
        <button type="button" className={navButton} onClick={() => step(1)} disabled={atLastMonth} aria-label="Next month">
          <Chevron direction="right" />
        </button>
      </div>
      <table className="w-full table-fixed border-collapse text-center" aria-label={`${MONTHS[view.month - 1]} ${view.year}`}>
        <thead>
          <tr>
            {WEEKDAYS.map(([short, long]) => (
              <th key={short} scope="col" abbr={long} className="pb-1 text-xs font-semibold text-white/70">
                {short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week, w) => (
            <tr key={w}>
              {week.map((day, d) => {
                if (day === null) return <td key={d} />;
                const cell = { year: view.year, month: view.month, day };
                const past = dayNumber(cell) < dayNumber(today);
                const isSelected = Boolean(selected && dayNumber(selected) === dayNumber(cell));
                const isToday = dayNumber(today) === dayNumber(cell);
                return (
                  <td key={d} className="p-0.5">
                    <button
                      type="button"
                      disabled={past}
                      aria-pressed={isSelected}
                      aria-current={isToday ? 'date' : undefined}
                      data-autofocus={(selected ? isSelected : isToday && !past) || undefined}
                      aria-label={`${WEEKDAYS[d][1]} ${day} ${MONTHS[view.month - 1]} ${view.year}`}
                      onClick={() => onChange(formatScheduleDate(new Date(Date.UTC(view.year, view.month - 1, day))))}
                      className={`h-9 w-9 rounded-full text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-accent disabled:cursor-not-allowed disabled:text-white/30 ${
                        isSelected
                          ? 'bg-accent font-bold text-navy'
                          : `text-white hover:bg-white/10 ${isToday ? 'ring-1 ring-inset ring-accent/70' : ''}`
                      }`}
                    >
                      {day}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A grid of 4 columns over 12 years; years outside minYear–maxYear are disabled. */
export function YearPicker({
  year,
  minYear,
  maxYear,
  onPick,
}: {
  year: number;
  minYear: number;
  maxYear: number;
  onPick: (year: number) => void;
}) {
  const [pageStart, setPageStart] = useState(Math.floor(year / YEAR_RANGE) * YEAR_RANGE);
  const years = Array.from({ length: YEAR_RANGE }, (_, i) => pageStart + i);
  return (
    <div>
      <div className="mb-2 flex items-center justify-between gap-2">
        <button
          type="button"
          className={navButton}
          onClick={() => setPageStart((start) => start - YEAR_RANGE)}
          disabled={pageStart <= minYear}
          aria-label="Earlier years"
        >
          <Chevron direction="left" />
        </button>
        <p className="text-base font-semibold text-white" id="year-picker-title">
          {years[0]}–{years[years.length - 1]}
        </p>
        <button
          type="button"
          className={navButton}
          onClick={() => setPageStart((start) => start + YEAR_RANGE)}
          disabled={pageStart + YEAR_RANGE > maxYear}
          aria-label="Later years"
        >
          <Chevron direction="right" />
        </button>
      </div>
      <div role="group" aria-labelledby="year-picker-title" className="grid grid-cols-4 gap-1.5">
        {years.map((candidate) => (
          <button
            key={candidate}
            type="button"
            disabled={candidate < minYear || candidate > maxYear}
            aria-pressed={candidate === year}
            onClick={() => onPick(candidate)}
            className={`rounded-full py-2 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-accent disabled:cursor-not-allowed disabled:text-white/30 ${
              candidate === year ? 'bg-accent font-bold text-navy' : 'text-white hover:bg-white/10'
            }`}
          >
            {candidate}
          </button>
        ))}
      </div>
    </div>
  );
}

function Chevron({ direction }: { direction: 'left' | 'right' }) {
  return (
    <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-5 w-5">
      <path
        fillRule="evenodd"
        d={
          direction === 'left'
            ? 'M12.8 4.2a1 1 0 0 1 0 1.4L8.4 10l4.4 4.4a1 1 0 0 1-1.4 1.4l-5.1-5.1a1 1 0 0 1 0-1.4l5.1-5.1a1 1 0 0 1 1.4 0Z'
            : 'M7.2 15.8a1 1 0 0 1 0-1.4l4.4-4.4-4.4-4.4a1 1 0 1 1 1.4-1.4l5.1 5.1a1 1 0 0 1 0 1.4l-5.1 5.1a1 1 0 0 1-1.4 0Z'
        }
        clipRule="evenodd"
      />
    </svg>
  );
}
