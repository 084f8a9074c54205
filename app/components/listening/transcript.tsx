import { formatAt } from '#contract/listening';
import type { Cue } from '#contract/transcript';
import { seekTo } from './playhead';
import { usePlayhead } from './use-playhead';

/**
 * The transcript under an item's player, rendered on the server: each line with its time, a link to that moment
 * (`?t=`, a plain link without JavaScript; with it, the player seeks). While the item plays, the line being said is
 * highlighted and marked as the current one for screen readers.
 */
export function Transcript({ itemId, cues, momentHref }: { itemId: string; cues: Cue[]; momentHref: (seconds: number) => string }) {
  const position = usePlayhead(itemId);
  let current = -1;
  if (position !== null) for (const [index, cue] of cues.entries()) if (cue.start <= position + 0.25) current = index;
  return (
    <section aria-labelledby="transcript-title" className="mt-8">
      <h2 id="transcript-title" className="text-xl font-bold text-white">
        Transcript
      </h2>
      <ol className="mt-3 space-y-1">
        {cues.map((cue, index) => (
          <li
            key={index}
            aria-current={index === current ? 'true' : undefined}
            className={`flex gap-3 rounded-lg px-3 py-2 ${index === current ? 'bg-accent/15 text-white' : 'text-white/85'}`}
          >
            <a
              href={momentHref(cue.start)}
              onClick={(event) => {
                if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                if (seekTo(itemId, cue.start)) event.preventDefault();
              }}
              aria-label={`Play from ${formatAt(cue.start)}`}
              className="shrink-0 font-mono text-sm font-bold text-accent hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
            >
              {formatAt(cue.start)}
            </a>
            <span className="text-base leading-relaxed">{cue.text}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
