import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { EnvSchema, parseConfig } from '#contract/config';

/**
 * compose.yaml cannot be started here (no Docker daemon), so this reads it as Compose would: variables interpolated
 * from the stack's example settings, then every app node's environment run through the app's own configuration
 * schema, and the wiring between the services, the image and Caddy checked by name and port.
 */
const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface Service {
  image?: string;
  build?: string;
  environment?: Record<string, string | number | boolean | null>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  expose?: string[];
  ports?: string[];
  volumes?: string[];
  networks?: string[] | Record<string, { ipv4_address?: string } | null>;
}

/** The lines `NAME=value` of an env file, commented-out ones too when asked (`# NAME=value`). */
function envFile(text: string, withCommented = false) {
  const pattern = withCommented ? /^(?:#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/ : /^([A-Z][A-Z0-9_]*)=(.*)$/;
  const settings: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const [, name, value] = pattern.exec(line.trim()) ?? [];
    if (name) settings[name] = value;
  }
  return settings;
}

/** Compose's interpolation: $$, $NAME, ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ${NAME?error}. */
export function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (match, name, colon, kind, word, bare) => {
      if (match === '$$') return '$';
      if (bare) return env[bare] ?? '';
      const value = env[name as string];
      const missing = value === undefined || (colon === ':' && value === '');
      if (!kind) return value ?? '';
      if (kind === '-') return missing ? (word as string) : value!;
      if (missing) throw new Error(`required variable ${name} is missing a value: ${word}`);
      return value!;
    },
  );
}

/** The stack's example settings, with a made-up value for each secret the operator must choose. */
const exampleSettings = () => {
  const settings = envFile(read('deploy/stack.env.example'));
  for (const [name, value] of Object.entries(settings))
    if (value === '' && /PASSWORD|SECRET_ACCESS|VAPID_/.test(name)) settings[name] = `made-up-${name.toLowerCase()}`;
  return settings;
};

const loadCompose = (env: Record<string, string | undefined>) =>
  parseYaml(interpolate(read('compose.yaml'), env), { merge: true }) as {
    services: Record<string, Service>;
    networks: Record<string, unknown>;
  };

const compose = loadCompose(exampleSettings());
const services = compose.services;
const APP_NODES = ['app1', 'app2'];
const asStrings = (environment: Service['environment']) =>
  Object.fromEntries(Object.entries(environment ?? {}).map(([key, value]) => [key, value === null ? '' : String(value)]));

it('has the several-node stack: two app nodes, PostgreSQL, Redis, MinIO with its bucket made once, Caddy', () => {
  expect(Object.keys(services).sort()).toEqual(['app1', 'app2', 'caddy', 'createbucket', 'minio', 'postgres', 'redis']);
  for (const node of APP_NODES) {
    expect(services[node].build, `${node} is the image of the Dockerfile`).toBe('.');
    expect(services[node].environment?.SERVE).toBe('all');
  }
  expect(services.postgres.image).toMatch(/^postgres:/);
  expect(services.redis.image).toMatch(/^redis:/);
  expect(services.minio.image).toMatch(/^minio\/minio/);
  expect(services.caddy.image).toMatch(/^caddy:/);
});

it('starts each service after what it needs, waiting on health checks that exist', () => {
  for (const [name, service] of Object.entries(services)) {
    for (const [needed, { condition }] of Object.entries(service.depends_on ?? {})) {
      expect(services[needed], `${name} depends on ${needed}, which is no service`).toBeDefined();
      if (condition === 'service_healthy') expect(services[needed].healthcheck, `${name} waits for ${needed} to be healthy`).toBeDefined();
      else expect(condition, `${name} waits for ${needed}`).toBe('service_completed_successfully');
    }
  }
  for (const node of APP_NODES)
    expect(services[node].depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
      createbucket: { condition: 'service_completed_successfully' },
    });
  expect(services.createbucket.depends_on).toEqual({ minio: { condition: 'service_healthy' } });
  expect(Object.keys(services.caddy.depends_on ?? {}).sort()).toEqual(APP_NODES);
  for (const name of ['app1', 'app2', 'postgres', 'redis', 'minio'])
    expect(services[name].healthcheck?.test.length, name).toBeGreaterThan(1);
});

it('sets on the app nodes only variables of the configuration schema, each valid by it, wired to the stack’s services', () => {
  const known = Object.keys(EnvSchema.shape);
  for (const node of APP_NODES) {
    const env = asStrings(services[node].environment);
    expect(
      Object.keys(env).filter((name) => !known.includes(name)),
      `${node} sets variables the app does not read`,
    ).toEqual([]);
    const config = parseConfig(env as unknown as NodeJS.ProcessEnv);
    expect(config.appEnv).toBe('production');
    expect(config.publicWebUrl).toBe('https://fans.example.com');
    expect(config.publicApiUrl).toBe('https://api.fans.example.com');
    expect(new URL(config.databaseUrl!).host).toBe('postgres:5432');
    expect(new URL(config.redisUrl!).host).toBe('redis:6379');
    expect(config.media.s3).toMatchObject({ bucket: 'stagedoor-media', endpoint: 'http://minio:9000' });
    expect(config.dataDir).toBe('/data');
    expect(config.vapid.publicKey, 'both nodes sign pushes with one key pair').toBeTruthy();
    // The proxy believed is Caddy, at its fixed address on the stack's network, and no one else.
    const caddyNetworks = services.caddy.networks as Record<string, { ipv4_address: string }>;
    expect(config.trustedProxies).toEqual([caddyNetworks.stagedoor.ipv4_address]);
    expect(
      services[node].volumes?.some((volume) => volume.endsWith(':/data')),
      `${node} keeps its DATA_DIR on a volume`,
    ).toBe(true);
  }
  expect(services.app1.environment).toEqual(services.app2.environment);
});

it('names every variable of .env.example on the app nodes', () => {
  const example = Object.keys(envFile(read('.env.example'), true));
  expect(example.length).toBeGreaterThan(40);
  const env = services.app1.environment ?? {};
  expect(example.filter((name) => !(name in env))).toEqual([]);
});

it('cannot start without the secrets the operator must choose, and the example settings name each of them', () => {
  const required = [...read('compose.yaml').matchAll(/\$\{([A-Z0-9_]+):\?/g)].map(([, name]) => name);
  expect(new Set(required)).toEqual(
    new Set([
      'WEB_DOMAIN',
      'API_DOMAIN',
      'ACME_EMAIL',
      'POSTGRES_PASSWORD',
      'MINIO_ROOT_PASSWORD',
      'S3_SECRET_ACCESS_KEY',
      'VAPID_PUBLIC_KEY',
      'VAPID_PRIVATE_KEY',
    ]),
  );
  const example = envFile(read('deploy/stack.env.example'));
  for (const name of required) {
    expect(name in example, `deploy/stack.env.example names ${name}`).toBe(true);
    const settings = exampleSettings();
    delete settings[name];
    expect(() => loadCompose(settings), name).toThrow(`required variable ${name}`);
  }
});

it('serves the ports the image exposes and checks them as the image does', () => {
  const exposed = /^EXPOSE\s+(.+)$/m.exec(read('Dockerfile'))![1].trim().split(/\s+/).sort();
  const imageHealthcheck = /HEALTHCHECK[\s\S]*?CMD (node -e "(.*)")\n/.exec(read('Dockerfile'))![2];
  for (const node of APP_NODES) {
    const env = services[node].environment!;
    expect([String(env.PORT), String(env.API_PORT)].sort()).toEqual(exposed);
    expect([...(services[node].expose ?? [])].sort()).toEqual(exposed);
    expect(services[node].healthcheck?.test.at(-1)).toBe(imageHealthcheck);
  }
});

it('has Caddy serve both public names over TLS, upstreams the app nodes on their ports', () => {
  const mount = services.caddy.volumes?.find((volume) => volume.endsWith(':/etc/caddy/Caddyfile:ro'));
  expect(mount).toBeDefined();
  const caddyfile = read(mount!.split(':')[0]);
  // Every placeholder the Caddyfile reads is given to Caddy.
  const placeholders = [...caddyfile.matchAll(/\{\$([A-Z_]+)\}/g)].map(([, name]) => name);
  for (const name of placeholders) expect(services.caddy.environment?.[name], `caddy gets ${name}`).toBeTruthy();
  const sites = Object.fromEntries(
    [...caddyfile.matchAll(/^\{\$([A-Z_]+)\} \{$([\s\S]*?)^\}$/gm)].map(([, name, body]) => [
      name,
      [...body.matchAll(/reverse_proxy ([^{\n]+)/g)].flatMap(([, upstreams]) => upstreams.trim().split(/\s+/)),
    ]),
  );
  const env = services.app1.environment!;
  expect(sites).toEqual({
    WEB_DOMAIN: APP_NODES.map((node) => `${node}:${env.PORT}`),
    API_DOMAIN: APP_NODES.map((node) => `${node}:${env.API_PORT}`),
  });
  // The names the app believes it is served under are the ones Caddy has certificates for.
  expect(new URL(String(env.PUBLIC_WEB_URL)).host).toBe(services.caddy.environment?.WEB_DOMAIN);
  expect(new URL(String(env.PUBLIC_API_URL)).host).toBe(services.caddy.environment?.API_DOMAIN);
  expect(new URL(String(env.PUBLIC_API_URL)).protocol).toBe('https:');
  // socket.io's polling requests of one client must reach one node.
  expect(/\{\$API_DOMAIN\} \{[\s\S]*?lb_policy (\S+)/.exec(caddyfile)?.[1]).toBe('ip_hash');
  expect(services.caddy.ports).toEqual(expect.arrayContaining(['80:80', '443:443']));
});

it('interpolates as Compose does', () => {
  const env = { SET: 'x', EMPTY: '' };
  expect(interpolate('$$HOME ${SET} $SET ${UNSET:-d} ${EMPTY:-d} ${EMPTY-d} ${SET:?no}', env)).toBe('$HOME x x d d  x');
  expect(() => interpolate('${EMPTY:?say why}', env)).toThrow('required variable EMPTY is missing a value: say why');
});
