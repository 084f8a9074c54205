import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * `git clone`, `npm ci`, `npm test` is all a fresh machine needs, so the tests, their fixtures and the bench may start
 * only programs the README names (or Node itself, or a path the code resolves, such as the api's ffmpeg). A bare
 * `ffmpeg` once passed here only because someone had installed Debian's by hand; this guard keeps it from coming back.
 */
const ROOT = path.resolve(__dirname, '../..');
const SCANNED = ['tests', 'scripts'];
/** The resolver's own test, which makes fake tools of those names to see which one it picks. */
const ABOUT_THE_NAMES = ['tests/unit/media-tools.test.ts'];
/** The programs the README's "What you need" names, which the tests may start by name. */
const NAMED = ['node', 'npm', 'npx', 'apt-get', 'openssl', 'sh'];
/** Found the one way the app finds them (resolveMediaTools), never by name. */
const MEDIA_TOOLS = /(^|\/)ff(mpeg|probe)$/;
const CHILD_PROCESS = ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'fork'];
/** Those whose first argument is a shell command line, not a program. */
const SHELL = new Set(['exec', 'execSync']);

interface Finding {
  file: string;
  line: number;
  what: string;
}

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.(ts|tsx|mjs|js)$/.test(entry.name) ? [full] : [];
  });
}

const calleeName = (call: ts.CallExpression): string | undefined => {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  // cp.spawn(…), but not a regular expression's exec.
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text === 'exec' ? undefined : callee.name.text;
  // promisify(execFile)(…)
  if (ts.isCallExpression(callee) && calleeName(callee) === 'promisify' && callee.arguments[0])
    return ts.isIdentifier(callee.arguments[0]) ? callee.arguments[0].text : undefined;
  return undefined;
};

/** The strings an expression can evaluate to as a program: `'x'`, `a || 'x'`, `c ? 'x' : y` (not the `c` of it). */
function programsIn(node: ts.Expression): ts.StringLiteralLike[] {
  if (ts.isStringLiteralLike(node)) return [node];
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node)) return programsIn(node.expression);
  if (ts.isConditionalExpression(node)) return [...programsIn(node.whenTrue), ...programsIn(node.whenFalse)];
  const either = [ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.AmpersandAmpersandToken];
  if (ts.isBinaryExpression(node) && either.includes(node.operatorToken.kind)) return [...programsIn(node.left), ...programsIn(node.right)];
  return [];
}

/** A module's name in an import or export, which may well end in /ffmpeg. */
const isModuleName = (node: ts.Node) =>
  ts.isImportDeclaration(node.parent) ||
  ts.isExportDeclaration(node.parent) ||
  (ts.isCallExpression(node.parent) && node.parent.expression.kind === ts.SyntaxKind.ImportKeyword);

/** What one file starts by name that the README does not name, and every bare media tool it mentions. */
export function findUnnamedPrograms(file: string, text = fs.readFileSync(file, 'utf8')): Finding[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const findings: Finding[] = [];
  const at = (node: ts.Node, what: string) =>
    findings.push({ file: path.relative(ROOT, file), line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, what });

  // The child-process functions, and this file's own names for them: `const run = promisify(execFile)`, or a function
  // that hands its first parameter on as the program (`function run(command, args) { spawnSync(command, …) }`).
  const starters = new Map(CHILD_PROCESS.map((name) => [name, SHELL.has(name)]));
  const visitAll = (visit: (node: ts.Node) => void) => {
    const walk = (node: ts.Node) => {
      visit(node);
      node.forEachChild(walk);
    };
    walk(source);
  };
  for (let pass = 0; pass < 2; pass++) {
    visitAll((node) => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isCallExpression(node.initializer)) {
        const call = node.initializer;
        const wrapped = call.arguments[0];
        if (calleeName(call) === 'promisify' && wrapped && ts.isIdentifier(wrapped) && starters.has(wrapped.text))
          starters.set(node.name.text, starters.get(wrapped.text)!);
      }
      if ((ts.isFunctionDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && node.body) {
        const first = node.parameters[0]?.name;
        const name = ts.isFunctionDeclaration(node)
          ? node.name?.text
          : ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)
            ? node.parent.name.text
            : undefined;
        if (!first || !ts.isIdentifier(first) || !name) return;
        const walk = (inner: ts.Node): boolean =>
          (ts.isCallExpression(inner) &&
            starters.has(calleeName(inner) ?? '') &&
            !!inner.arguments[0] &&
            ts.isIdentifier(inner.arguments[0]) &&
            inner.arguments[0].text === first.text) ||
          !!inner.forEachChild(walk);
        if (walk(node.body)) starters.set(name, starters.get(name) ?? false);
      }
    });
  }

  visitAll((node) => {
    if (ts.isStringLiteralLike(node) && MEDIA_TOOLS.test(node.text) && !isModuleName(node))
      at(node, `names ${node.text}: find it with resolveMediaTools() (api/media/ffmpeg.ts), as the app does`);
    if (!ts.isCallExpression(node)) return;
    const name = calleeName(node);
    const program = node.arguments[0];
    if (!name || !starters.has(name) || !program) return;
    for (const literal of programsIn(program)) {
      const started = starters.get(name) ? literal.text.trim().split(/\s+/)[0] : literal.text;
      if (!NAMED.includes(started) && !MEDIA_TOOLS.test(started))
        at(literal, `starts ${started}, which the README does not name as something a machine needs`);
    }
  });
  return findings;
}

// It parses every file under tests/ and scripts/ with the TypeScript compiler: seconds, more on a busy machine.
it(
  'the tests, their fixtures and the bench start only programs the README names, and find ffmpeg as the app does',
  { timeout: 60_000 },
  () => {
    const findings = SCANNED.flatMap((folder) => sourceFiles(path.join(ROOT, folder)))
      .filter((file) => !ABOUT_THE_NAMES.includes(path.relative(ROOT, file)))
      .flatMap((file) => findUnnamedPrograms(file));
    expect(findings.map(({ file, line, what }) => `${file}:${line} ${what}`)).toEqual([]);
  },
);

it('each program the tests may start is named in the README\'s "What you need"', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const needs = /## What you need\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
  for (const program of NAMED) expect(needs, program).toContain(`\`${program}\``);
});

describe('the guard itself', () => {
  const check = (text: string) => findUnnamedPrograms(path.join(ROOT, 'tests/unit/example.ts'), text).map((finding) => finding.what);

  it('finds a bare ffmpeg however it is started', () => {
    expect(check(`execFileSync('ffmpeg', ['-version']);`)).toHaveLength(1);
    expect(check(`execFileSync(process.env.FFMPEG_PATH || 'ffmpeg', []);`)).toHaveLength(1);
    expect(check(`const run = promisify(execFile); await run('/usr/bin/ffprobe', []);`)).toHaveLength(1);
    expect(check(`for (const f of [tools.ffmpeg, 'ffmpeg']) use(f);`)).toHaveLength(1);
  });

  it('finds other unnamed programs, through promisify and wrappers, and in shell command lines', () => {
    expect(check(`spawn('sox', ['a.wav']);`)).toEqual(['starts sox, which the README does not name as something a machine needs']);
    expect(check(`await promisify(execFile)('convert', []);`)).toHaveLength(1);
    expect(check(`function run(command, args) { return spawnSync(command, args); }\nrun('psql', []);`)).toHaveLength(1);
    expect(check(`const go = (file) => cp.spawn(file, []);\ngo('redis-cli');`)).toHaveLength(1);
    expect(check(`execSync('pg_dump test > out.sql');`)).toHaveLength(1);
  });

  it('lets through Node, the named programs and resolved paths', () => {
    expect(check(`spawn(process.execPath, ['-e', '0']); spawn('node', []); spawnSync('npx', ['eslint']);`)).toEqual([]);
    expect(check(`execFileSync('openssl', ['req']); spawn(tools.ffmpeg, []); execSync('npm run build');`)).toEqual([]);
  });
});
