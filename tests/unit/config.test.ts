import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '#contract/config';

const parse = (env: Record<string, string>) => parseConfig(env as unknown as NodeJS.ProcessEnv);

describe('TRUSTED_PROXIES', () => {
  it('trusts loopback only by default', () => {
    expect(parse({}).trustedProxies).toEqual(['loopback']);
    expect(parse({ TRUSTED_PROXIES: ' ' }).trustedProxies).toEqual(['loopback']);
  });

  it('reads addresses and CIDR ranges separated by commas', () => {
    expect(parse({ TRUSTED_PROXIES: '10.0.0.5, 10.1.0.0/16,fd00::/8 ,::1,loopback' }).trustedProxies).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'fd00::/8',
      '::1',
      'loopback',
    ]);
  });

  it('refuses anything else with one line naming the variable', () => {
    for (const value of ['10.0.0', '10.0.0.0/33', 'fd00::/129', 'proxy.internal', '10.0.0.0/8/1', '*']) {
      expect(() => parse({ TRUSTED_PROXIES: value }), value).toThrow(ConfigError);
      expect(() => parse({ TRUSTED_PROXIES: value }), value).toThrow(
        /^Invalid environment variable TRUSTED_PROXIES: must be IP addresses or CIDR ranges/,
      );
    }
  });
});

describe('WEB_PROCESSES', () => {
  it('renders pages in the api’s process unless told otherwise', () => {
    expect(parse({}).webProcesses).toBe(1);
    expect(parse({ WEB_PROCESSES: '' }).webProcesses).toBe(1);
    expect(parse({ WEB_PROCESSES: '4' }).webProcesses).toBe(4);
  });

  it('refuses a count that is not a whole number from 1 to 64', () => {
    for (const value of ['0', '-2', '1.5', 'two', '65']) {
      expect(() => parse({ WEB_PROCESSES: value }), value).toThrow(/^Invalid environment variable WEB_PROCESSES/);
    }
  });
});

describe('public addresses', () => {
  it('follow PORT and API_PORT locally, and stay the named hosts elsewhere', () => {
    expect(parse({})).toMatchObject({ publicApiUrl: 'http://localhost:8080', publicWebUrl: 'http://localhost:3000' });
    const moved = parse({ PORT: '4000', API_PORT: '9090' });
    expect(moved).toMatchObject({ publicApiUrl: 'http://localhost:9090', publicWebUrl: 'http://localhost:4000' });
    expect(moved.webOrigins).toEqual(['http://localhost:4000']);
    expect(parse({ API_PORT: '9090', PUBLIC_API_URL: 'https://api.fans.example/' }).publicApiUrl).toBe('https://api.fans.example');
    expect(parse({ APP_ENV: 'staging', API_PORT: '9090' }).publicApiUrl).toBe('https://api.staging.stagedoor.fm');
  });
});

describe('EXTRA_WEB_ORIGINS', () => {
  it('allows the web app’s own origin by default, and the origins listed besides it', () => {
    expect(parse({}).webOrigins).toEqual(['http://localhost:3000']);
    expect(parse({ PUBLIC_WEB_URL: 'https://fans.example/app/' }).webOrigins).toEqual(['https://fans.example']);
    expect(
      parse({
        PUBLIC_WEB_URL: 'https://fans.example',
        EXTRA_WEB_ORIGINS: ' https://www.fans.example/, https://fans.example,http://10.0.0.5:3000',
      }).webOrigins,
    ).toEqual(['https://fans.example', 'https://www.fans.example', 'http://10.0.0.5:3000']);
  });

  it('refuses anything but URLs, naming the variable', () => {
    for (const value of ['*', 'fans.example', 'https://ok.example,null']) {
      expect(() => parse({ EXTRA_WEB_ORIGINS: value }), value).toThrow(/^Invalid environment variable EXTRA_WEB_ORIGINS: must be origins/);
    }
  });
});

describe('METRICS_TOKEN and METRICS_PORT', () => {
  it('leave /metrics off unless one is set', () => {
    expect(parse({}).metrics).toEqual({ token: undefined, port: undefined });
    expect(parse({ METRICS_TOKEN: '', METRICS_PORT: '' }).metrics).toEqual({ token: undefined, port: undefined });
    expect(parse({ METRICS_TOKEN: 'a'.repeat(24), METRICS_PORT: '9100' }).metrics).toEqual({ token: 'a'.repeat(24), port: 9100 });
  });

  it('refuse a short token, one with spaces, a port out of range or one the app uses, naming the variable', () => {
    for (const value of ['short', `${'a'.repeat(20)} bbbb`]) {
      expect(() => parse({ METRICS_TOKEN: value }), value).toThrow(/^Invalid environment variable METRICS_TOKEN: must be at least 24/);
    }
    for (const value of ['0', '70000', 'http']) {
      expect(() => parse({ METRICS_PORT: value }), value).toThrow(/^Invalid environment variable METRICS_PORT/);
    }
    expect(() => parse({ METRICS_PORT: '8080' })).toThrow('Invalid environment variable METRICS_PORT: must differ from PORT and API_PORT');
    expect(() => parse({ PORT: '4000', METRICS_PORT: '4000' })).toThrow(/METRICS_PORT: must differ/);
  });
});
