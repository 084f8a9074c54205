// Writes the results into docs/benchmarks.md between two markers; the hand-written text around them (method,
// findings, fixes) is kept.
import fs from 'node:fs';
import path from 'node:path';
import { PARTS, ROOT } from './lib.mjs';
import { budgetTable, markdownTable } from './report.mjs';

const START = '<!-- bench:results:start (written by `npm run bench`; edit outside the markers) -->';
const END = '<!-- bench:results:end -->';

export function writeDocs(results) {
  const file = path.join(ROOT, 'docs/benchmarks.md');
  const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : `# Benchmarks\n\n${START}\n${END}\n`;
  const m = results.machine;
  const count = (status) => results.checks.filter((c) => c.status === status).length;
  const parts = results.args.only ?? PARTS;
  const options = [
    `parts: ${parts.join(', ')}`,
    parts.includes('throughput') &&
      `autocannon ${results.args.duration} s per run at ${results.args.connections.join(' and ')} connections`,
    parts.includes('realtime') && `${results.args.clients} realtime clients`,
    parts.includes('paint') && `${results.args.loads} cold loads per page for paint`,
    parts.includes('load') && `load for ${results.args.loadDuration} s`,
  ].filter(Boolean);
  const generated = [
    START,
    '',
    `## Latest run: ${results.began.toISOString().replace('T', ' ').slice(0, 16)} UTC`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memGb.toFixed(0)} GB, Node ${m.node}; load average at start ` +
      `${m.loadavg.map((v) => v.toFixed(2)).join(' / ')}, at the end ${results.loadEnd.map((v) => v.toFixed(2)).join(' / ')} (1/5/15 min). ` +
      `Run took ${((results.finished - results.began) / 1000).toFixed(0)} s (${options.join('; ')}); per part: ` +
      `${Object.entries(results.timings)
        .map(([k, v]) => `${k} ${v.toFixed(0)} s`)
        .join(', ')}.`,
    ...results.notes.map((n) => `\n${n}`),
    '',
    `**Result: ${count('miss')} budget(s) missed, ${count('ok')} held, ${count('n/a')} not applicable** (a page not built yet, ` +
      'lite mode not built, or a budget for the other database).',
    '',
    ...results.tables.map((t) => markdownTable(t)),
    markdownTable(budgetTable(results.checks)),
    END,
  ].join('\n');
  const from = existing.indexOf(START);
  const to = existing.indexOf(END);
  const next =
    from >= 0 && to > from
      ? `${existing.slice(0, from)}${generated}${existing.slice(to + END.length)}`
      : `${existing.trimEnd()}\n\n${generated}\n`;
  fs.writeFileSync(file, next);
}
