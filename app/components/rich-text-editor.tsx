import { useInputControl, type FieldMetadata } from '@conform-to/react';
import { useEffect, useRef, type ClipboardEvent, type ReactNode } from 'react';
import { CAPTION_MAX, visibleTextLength } from '#contract/content-rules';
import { TextareaField } from './forms';
import { ErrorList } from './form-parts';
import { useHydrated } from './use-hydrated';

/** Plain text (a caption that arrived from the textarea, or an old one) as paragraphs the editor can show. */
export function textToHtml(text: string) {
  if (/<\/?(p|br|strong|b|em|i|ul|ol|li|a)\b/i.test(text)) return text;
  const escape = (line: string) => line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return text
    .split(/\n{2,}/)
    .filter((paragraph) => paragraph.trim())
    .map((paragraph) => `<p>${paragraph.split('\n').map(escape).join('<br>')}</p>`)
    .join('');
}

const SAFE_LINK = /^(https?:\/\/|mailto:)\S+$/i;

/**
 * The caption (`content`). Without JavaScript a plain textarea named `content`: the API turns its text
 * into paragraphs. With JavaScript a small editor (bold, italic, link, bulleted and numbered lists) built on
 * contentEditable and document.execCommand, which costs a few hundred bytes instead of an editor library; it
 * writes its HTML into a hidden input named `content`. The API sanitises whatever arrives and counts the 4000
 * characters on the visible text, as the counter here does.
 */
export function RichTextEditor({
  field,
  label,
}: {
  field: FieldMetadata<string | undefined, Record<string, unknown>, string[]>;
  label: string;
}) {
  const hydrated = useHydrated();
  if (!hydrated) {
    return <TextareaField field={field} label={label} hint="Leave an empty line between paragraphs." textareaProps={{ rows: 8 }} />;
  }
  return <Editor field={field} label={label} invalid={Boolean(field.errors?.length)} />;
}

function Editor({
  field,
  label,
  invalid,
}: {
  field: FieldMetadata<string | undefined, Record<string, unknown>, string[]>;
  label: string;
  invalid: boolean;
}) {
  const control = useInputControl(field);
  const editor = useRef<HTMLDivElement>(null);
  const labelId = `${field.id}-label`;

  useEffect(() => {
    if (!editor.current) return;
    // An empty editor starts with a paragraph, so the first line typed is one too.
    editor.current.innerHTML = textToHtml(field.initialValue ?? '') || '<p><br></p>';
    document.execCommand('defaultParagraphSeparator', false, 'p');
    // Once per field (on mount, or when conform gives the field a new key): React must not rewrite what the artist
    // is typing, so a new initialValue alone does not come in.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [field.key]);

  const sync = () => control.change(editor.current?.innerHTML ?? '');
  const run = (command: string, value?: string) => {
    editor.current?.focus();
    document.execCommand(command, false, value);
    sync();
  };
  const addLink = () => {
    const address = window.prompt('Link address (https://…)')?.trim();
    if (!address) return;
    if (!SAFE_LINK.test(address)) {
      window.alert('Please enter a full link starting with https://.');
      return;
    }
    run('createLink', address);
  };
  // Pasted text arrives as text: styles and scripts from other pages stay out.
  const pastePlain = (event: ClipboardEvent<HTMLDivElement>) => {
    event.preventDefault();
    document.execCommand('insertText', false, event.clipboardData.getData('text/plain'));
    sync();
  };
  const length = visibleTextLength(control.value ?? '');

  return (
    <div>
      {/* Clicked, it does what a label does for the mouse; the keyboard reaches the editor by Tab. */}
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions */}
      <p id={labelId} className="mb-1.5 block text-sm font-medium text-white/90" onClick={() => editor.current?.focus()}>
        {label}
      </p>
      <div
        className={`overflow-hidden rounded-lg border bg-white/5 focus-within:ring-2 focus-within:ring-accent ${invalid ? 'border-red-400' : 'border-white/25'}`}
      >
        <div
          role="toolbar"
          aria-label="Formatting"
          aria-controls={field.id}
          className="flex flex-wrap gap-1 border-b border-white/15 px-2 py-1.5"
        >
          <ToolButton label="Bold" onClick={() => run('bold')}>
            <span className="font-bold">B</span>
          </ToolButton>
          <ToolButton label="Italic" onClick={() => run('italic')}>
            <span className="font-serif italic">I</span>
          </ToolButton>
          <ToolButton label="Link" onClick={addLink}>
            <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-4 w-4">
              <path d="M12.23 3.77a3.5 3.5 0 0 1 4.95 4.95l-2.5 2.5a3.5 3.5 0 0 1-4.95 0 .75.75 0 1 1 1.06-1.06 2 2 0 0 0 2.83 0l2.5-2.5a2 2 0 1 0-2.83-2.83l-1 1a.75.75 0 0 1-1.06-1.06l1-1Zm-4.46 4.46a3.5 3.5 0 0 1 4.95 0 .75.75 0 0 1-1.06 1.06 2 2 0 0 0-2.83 0l-2.5 2.5a2 2 0 1 0 2.83 2.83l1-1a.75.75 0 0 1 1.06 1.06l-1 1a3.5 3.5 0 0 1-4.95-4.95l2.5-2.5Z" />
            </svg>
          </ToolButton>
          <ToolButton label="Bulleted list" onClick={() => run('insertUnorderedList')}>
            <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-4 w-4">
              <path d="M3 5a1 1 0 1 0 0-2 1 1 0 0 0 0 2Zm3.75-1.75h10.5v1.5H6.75v-1.5ZM3 11a1 1 0 1 0 0-2 1 1 0 0 0 0 2Zm3.75-1.75h10.5v1.5H6.75v-1.5ZM3 17a1 1 0 1 0 0-2 1 1 0 0 0 0 2Zm3.75-1.75h10.5v1.5H6.75v-1.5Z" />
            </svg>
          </ToolButton>
          <ToolButton label="Numbered list" onClick={() => run('insertOrderedList')}>
            <span className="text-xs font-bold">1.</span>
          </ToolButton>
        </div>
        <div
          ref={editor}
          id={field.id}
          role="textbox"
          aria-multiline="true"
          aria-labelledby={labelId}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? field.errorId : `${field.id}-count`}
          contentEditable
          suppressContentEditableWarning
          onInput={sync}
          onBlur={control.blur}
          onPaste={pastePlain}
          className="min-h-[10rem] px-3 py-2.5 text-base text-white focus:outline-none [&_a]:text-accent [&_a]:underline [&_ol]:list-decimal [&_ol]:pl-6 [&_p+p]:mt-3 [&_ul]:list-disc [&_ul]:pl-6"
        />
      </div>
      <input type="hidden" name={field.name} value={control.value ?? ''} />
      <p id={`${field.id}-count`} className={`mt-1 text-right text-sm ${length > CAPTION_MAX ? 'text-red-300' : 'text-white/70'}`}>
        {length} / {CAPTION_MAX} characters
      </p>
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

function ToolButton({ label, onClick, children }: { label: string; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      // Keep the selection in the editor when the button is pressed.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
      className="flex h-8 min-w-8 items-center justify-center rounded px-2 text-white hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
    >
      {children}
    </button>
  );
}
