import { highlightParts } from '#contract/search';

/** A title or passage from a search list, its matched words marked. */
export function Highlighted({ text }: { text: string }) {
  return (
    <>
      {highlightParts(text).map((part, index) =>
        part.mark ? (
          <mark key={index} className="rounded bg-accent/30 px-0.5 text-white">
            {part.text}
          </mark>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
