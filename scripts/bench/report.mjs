// Tables for the terminal and for docs/benchmarks.md.

export function printTable({ title, header, rows }) {
  const widths = header.map((h, i) => Math.max(String(h).length, ...rows.map((r) => String(r[i] ?? '').length)));
  const numeric = header.map((_, i) =>
    rows.every((r) => r[i] === '' || r[i] == null || /^[+−-]?[\d.,]+( ?[a-zA-Z%×]+)?$/.test(String(r[i]))),
  );
  const pad = (value, i) => (numeric[i] && i > 0 ? String(value ?? '').padStart(widths[i]) : String(value ?? '').padEnd(widths[i]));
  console.log(`\n${title}`);
  console.log(header.map(pad).join('  '));
  console.log(widths.map((w) => '─'.repeat(w)).join('  '));
  for (const row of rows) console.log(row.map(pad).join('  '));
}

export function markdownTable({ title, header, rows, note = '' }) {
  const esc = (v) => String(v ?? '').replace(/\|/g, '\\|');
  const lines = [`### ${title}`, ''];
  if (note) lines.push(note, '');
  lines.push(`| ${header.map(esc).join(' | ')} |`);
  lines.push(`|${header.map(() => '---').join('|')}|`);
  for (const row of rows) lines.push(`| ${row.map(esc).join(' | ')} |`);
  lines.push('');
  return lines.join('\n');
}

const MARK = { ok: 'ok', miss: 'MISSED', 'n/a': 'n/a' };

/** The checks as tests (npm test counts the page-weight budgets): held, missed, and not applicable yet. */
export function countChecks(checks) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const check of checks) {
    if (check.status === 'ok') counts.passed += 1;
    else if (check.status === 'n/a') counts.skipped += 1;
    else counts.failed += 1;
  }
  return counts;
}

export function budgetTable(checks) {
  return {
    title: 'Budgets',
    header: ['part', 'what', 'measured', 'budget', 'result', 'note'],
    rows: checks.map((c) => [c.part, c.what, c.value, c.budget, MARK[c.status] ?? c.status, c.note ?? '']),
  };
}
