import type { ContentType } from '#contract/content-types';

/** FNV-1a: the same title always draws the same picture, on the server and in the browser alike. */
function hash(text: string) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

type Motif = 'wave' | 'tape' | 'rings' | 'frame' | 'grid';

const MOTIFS: Partial<Record<ContentType, Motif>> = {
  voicenote: 'wave',
  demo: 'tape',
  unreleased: 'tape',
  session: 'rings',
  live: 'rings',
  videoMessage: 'frame',
  musicVideo: 'frame',
};

/**
 * The artwork of an item that has no picture of its own: drawn from its title and category, so every tile
 * of a vault looks different and the same item always looks the same. Its colours come from the title, its motif
 * from the category (a waveform for a voice note, tape lines for a demo, stage rings for a session or a live set, a
 * screen for a video, a grid for anything else). Pure SVG in the page: no request, no script of its own, no text.
 */
export function ItemArt({ title, type, className = 'h-full w-full' }: { title: string; type: ContentType; className?: string }) {
  const seed = hash(`${type}:${title}`);
  const hue = seed % 360;
  const second = (hue + 40 + ((seed >> 9) % 80)) % 360;
  const motif = MOTIFS[type] ?? 'grid';
  const id = `art-${seed.toString(36)}`;
  const n = (shift: number, mod: number) => (seed >> shift) % mod;
  return (
    <svg viewBox="0 0 100 100" preserveAspectRatio="xMidYMid slice" aria-hidden="true" className={className}>
      <defs>
        <linearGradient id={id} x1="0" y1="0" x2={n(3, 2)} y2="1">
          <stop offset="0" stopColor={`hsl(${hue} 65% 32%)`} />
          <stop offset="1" stopColor={`hsl(${second} 70% 18%)`} />
        </linearGradient>
      </defs>
      <rect width="100" height="100" fill={`url(#${id})`} />
      {motif === 'wave'
        ? Array.from({ length: 15 }, (_, i) => {
            const height = 10 + ((seed >> (i % 24)) % 45);
            return <rect key={i} x={8 + i * 6} y={50 - height / 2} width="3" height={height} rx="1.5" fill="white" fillOpacity="0.75" />;
          })
        : null}
      {motif === 'tape'
        ? Array.from({ length: 6 }, (_, i) => (
            <rect
              key={i}
              x="0"
              y={18 + i * 12 + n(i + 2, 5)}
              width="100"
              height={2 + n(i + 5, 4)}
              fill="white"
              fillOpacity={0.2 + i * 0.08}
            />
          ))
        : null}
      {motif === 'rings'
        ? [0, 1, 2, 3].map((i) => (
            <circle
              key={i}
              cx={30 + n(4, 40)}
              cy={35 + n(7, 30)}
              r={10 + i * 12}
              fill="none"
              stroke="white"
              strokeOpacity={0.7 - i * 0.15}
              strokeWidth={3 - i * 0.5}
            />
          ))
        : null}
      {motif === 'frame' ? (
        <>
          <rect x="18" y="26" width="64" height="48" rx="6" fill="none" stroke="white" strokeOpacity="0.7" strokeWidth="3" />
          <path d="M44 40 L60 50 L44 60 Z" fill="white" fillOpacity="0.8" />
        </>
      ) : null}
      {motif === 'grid'
        ? Array.from({ length: 16 }, (_, i) => (
            <circle
              key={i}
              cx={20 + (i % 4) * 20}
              cy={20 + Math.floor(i / 4) * 20}
              r={2 + ((seed >> (i % 24)) % 6)}
              fill="white"
              fillOpacity="0.55"
            />
          ))
        : null}
    </svg>
  );
}
