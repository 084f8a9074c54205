import type { EarningsMonth } from '#contract/earnings';
import { formatPrice } from '#contract/money';

const longMonth = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const shortMonth = new Intl.DateTimeFormat('en-US', { month: 'short', timeZone: 'UTC' });
const monthDate = (month: string) => new Date(`${month}-01T00:00:00Z`);

const WIDTH = 720;
const HEIGHT = 260;
const PAD = { top: 16, right: 8, bottom: 28, left: 8 };

/**
 * Money by month for 12 months: a chart drawn on the server as SVG (gross as the pale bar, net in front of it in the
 * accent colour), and the same figures as a table under it, which is what a screen reader reads (the drawing is
 * hidden from it) and what a page without JavaScript or styles shows. No chart library: a dozen rectangles.
 */
export function EarningsChart({ months, currency }: { months: EarningsMonth[]; currency: string }) {
  const money = (amount: number) => formatPrice(amount, currency);
  const top = Math.max(1, ...months.map((month) => month.gross));
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = (WIDTH - PAD.left - PAD.right) / months.length;
  const barWidth = slot * 0.62;
  const y = (amount: number) => PAD.top + plotHeight - (Math.max(0, amount) / top) * plotHeight;
  return (
    <figure aria-labelledby="earnings-chart-title" className="rounded-2xl bg-navy-light p-4 ring-1 ring-white/10 sm:p-6">
      <figcaption id="earnings-chart-title" className="text-xl font-bold text-white">
        Money by month
      </figcaption>
      <p className="mt-1 text-sm text-white/70">
        <span className="mr-4 inline-flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm bg-white/25" /> Gross
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm bg-accent" /> Net (after refunds and fees)
        </span>
      </p>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="mt-4 h-auto w-full" aria-hidden="true" focusable="false">
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(0)} y2={y(0)} stroke="rgba(255,255,255,0.25)" />
        {months.map((month, index) => {
          const x = PAD.left + index * slot + (slot - barWidth) / 2;
          return (
            <g key={month.month}>
              <title>{`${longMonth.format(monthDate(month.month))}: gross ${money(month.gross)}, net ${money(month.net)}`}</title>
              <rect x={x} y={y(month.gross)} width={barWidth} height={y(0) - y(month.gross)} rx={3} fill="rgba(255,255,255,0.25)" />
              <rect
                x={x + barWidth * 0.2}
                y={y(month.net)}
                width={barWidth * 0.6}
                height={y(0) - y(month.net)}
                rx={2}
                className="fill-accent"
              />
              <text x={x + barWidth / 2} y={HEIGHT - 8} textAnchor="middle" fontSize="16" fill="rgba(255,255,255,0.75)">
                {shortMonth.format(monthDate(month.month))}
              </text>
            </g>
          );
        })}
      </svg>
      {/* Scrolls sideways on a phone: focusable, so it scrolls with the keyboard too (axe: scrollable-region-focusable). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region is reached by keyboard */}
      <div className="mt-6 overflow-x-auto" tabIndex={0} role="region" aria-label="Members and money by month">
        <table className="w-full min-w-[36rem] text-left text-sm text-white/90">
          <caption className="sr-only">Members and money by month, last 12 months, in {currency.toUpperCase()}</caption>
          <thead className="text-white/70">
            <tr>
              <th scope="col" className="py-2 pr-3 font-medium">
                Month
              </th>
              {['Joined', 'Left', 'Churn', 'Gross', 'Refunds', 'Fees', 'Net'].map((heading) => (
                <th key={heading} scope="col" className="py-2 pl-3 text-right font-medium">
                  {heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-white/10">
            {months.map((month) => (
              <tr key={month.month}>
                <th scope="row" className="py-2 pr-3 font-medium text-white">
                  {longMonth.format(monthDate(month.month))}
                </th>
                <td className="py-2 pl-3 text-right tabular-nums">{month.joined}</td>
                <td className="py-2 pl-3 text-right tabular-nums">{month.left}</td>
                <td className="py-2 pl-3 text-right tabular-nums">
                  {month.churn === null ? (
                    <>
                      <span aria-hidden="true">–</span>
                      <span className="sr-only">no members at the start</span>
                    </>
                  ) : (
                    `${month.churn}%`
                  )}
                </td>
                <td className="py-2 pl-3 text-right tabular-nums">{money(month.gross)}</td>
                <td className="py-2 pl-3 text-right tabular-nums">{month.refunds ? `−${money(month.refunds)}` : money(0)}</td>
                <td className="py-2 pl-3 text-right tabular-nums">{month.fees ? `−${money(month.fees)}` : money(0)}</td>
                <td className="py-2 pl-3 text-right font-semibold tabular-nums text-white">{money(month.net)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
