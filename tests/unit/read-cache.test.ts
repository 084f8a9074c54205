import { describe, expect, it } from 'vitest';
import { createReadCache, MAX_AGE_MS, type Loaded } from '../../api/cache/read-cache';

/** A load that answers what `source` holds when it runs, counting how often it ran. */
function loader(source: { value: string }, tags: string[] = ['t'], extra: Partial<Loaded<string>> = {}) {
  const load = Object.assign(
    async () => {
      load.runs += 1;
      return { value: source.value, tags, ...extra };
    },
    { runs: 0 },
  );
  return load;
}

/** A load held open until released, to put a write in the middle of it. */
function heldLoad(source: { value: string }, tags = ['t']) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const load = async () => {
    const seen = source.value;
    await gate;
    return { value: seen, tags };
  };
  return { load, release };
}

describe('read cache', () => {
  it('answers from memory until a tag the entry was built from is invalidated', async () => {
    const cache = createReadCache();
    const source = { value: 'v1' };
    const load = loader(source, ['artist:1']);
    expect(await cache.read('k', load)).toBe('v1');
    source.value = 'v2';
    expect(await cache.read('k', load)).toBe('v1');
    expect(load.runs).toBe(1);

    await cache.invalidate('artist:2');
    expect(await cache.read('k', load)).toBe('v1');
    await cache.invalidate('artist:1');
    expect(await cache.read('k', load)).toBe('v2');
    expect(load.runs).toBe(2);
  });

  it('never keeps what a load read before a write that committed while it ran', async () => {
    const cache = createReadCache();
    const source = { value: 'before' };
    const slow = heldLoad(source);
    const first = cache.read('k', slow.load);
    // The write commits and invalidates while the load is still under way.
    source.value = 'after';
    await cache.invalidate('t');
    slow.release();
    expect(await first).toBe('before');
    const fresh = loader(source);
    expect(await cache.read('k', fresh)).toBe('after');
    expect(fresh.runs).toBe(1);
  });

  it('never keeps what a load read before the cache was cleared while it ran (a write outside the api, a flood of tags)', async () => {
    const cache = createReadCache();
    const source = { value: 'before' };
    const slow = heldLoad(source);
    const first = cache.read('k', slow.load);
    source.value = 'after';
    cache.clear();
    slow.release();
    expect(await first).toBe('before');
    const fresh = loader(source);
    expect(await cache.read('k', fresh)).toBe('after');
    expect(fresh.runs).toBe(1);
  });

  it('shares one load between concurrent readers, but a reader after a write does not join a load from before it', async () => {
    const cache = createReadCache();
    const source = { value: 'before' };
    const slow = heldLoad(source);
    const early = [cache.read('k', slow.load), cache.read('k', slow.load)];
    source.value = 'after';
    await cache.invalidate('t');
    const late = cache.read('k', loader(source));
    slow.release();
    expect(await Promise.all(early)).toEqual(['before', 'before']);
    expect(await late).toBe('after');
  });

  it('lets an entry live at most MAX_AGE_MS, or until its own time bound', async () => {
    let now = 1_000_000;
    const cache = createReadCache({ clock: () => now });
    const source = { value: 'v1' };
    const plain = loader(source);
    const bounded = loader(source, ['t'], { until: now + 5_000 });
    await cache.read('plain', plain);
    await cache.read('bounded', bounded);
    source.value = 'v2';
    now += 4_999;
    expect(await cache.read('bounded', bounded)).toBe('v1');
    now += 2;
    expect(await cache.read('bounded', bounded)).toBe('v2');
    expect(await cache.read('plain', plain)).toBe('v1');
    now += MAX_AGE_MS;
    expect(await cache.read('plain', plain)).toBe('v2');
  });

  it('does not keep answers marked keep: false (an unknown token), nor a failed load', async () => {
    const cache = createReadCache();
    const source = { value: 'none' };
    const unknown = loader(source, [], { keep: false });
    await cache.read('k', unknown);
    await cache.read('k', unknown);
    expect(unknown.runs).toBe(2);

    let fail = true;
    const flaky = async () => {
      if (fail) throw new Error('database down');
      return { value: 'ok', tags: [] };
    };
    await expect(cache.read('f', flaky)).rejects.toThrow('database down');
    fail = false;
    expect(await cache.read('f', flaky)).toBe('ok');
  });

  it('serves nothing from memory while disabled, and starts empty when enabled again', async () => {
    const cache = createReadCache();
    const source = { value: 'v1' };
    const load = loader(source);
    await cache.read('k', load);
    cache.setEnabled(false);
    source.value = 'v2';
    expect(await cache.read('k', load)).toBe('v2');
    expect(await cache.read('k', load)).toBe('v2');
    expect(load.runs).toBe(3);
    cache.setEnabled(true);
    source.value = 'v3';
    expect(await cache.read('k', load)).toBe('v3');
  });

  it('announces its invalidations to the other nodes, and applies theirs without announcing them again', async () => {
    const announced: string[][] = [];
    const cache = createReadCache({ announce: async (tags) => void announced.push([...tags]) });
    const source = { value: 'v1' };
    const load = loader(source, ['content:9']);
    await cache.read('k', load);
    await cache.invalidate('content:9', 'marks:3');
    expect(announced).toEqual([['content:9', 'marks:3']]);

    await cache.read('k', load);
    source.value = 'v2';
    cache.invalidateLocally(['content:9']);
    expect(await cache.read('k', load)).toBe('v2');
    expect(announced).toHaveLength(1);
  });
});
