import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form, useNavigation } from '@remix-run/react';
import { typedTranscript, type Cue } from '#contract/transcript';
import { FileField, TextareaField } from '~/components/forms';
import { FormAlert, SubmitButton } from '~/components/form-parts';

/**
 * The artist's captions and transcript of an item with a track or a video: typed paragraphs, each starting with its
 * time, or a WebVTT file (which takes the place of what the box holds). A plain multipart form: it works without
 * JavaScript. Voice notes and video messages without one say so, as a nudge.
 */
export function TranscriptForm({
  itemId,
  cues,
  nudge,
  lastResult,
}: {
  itemId: string;
  cues: Cue[];
  nudge: boolean;
  lastResult?: SubmissionResult<string[]>;
}) {
  const navigation = useNavigation();
  const saving = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'transcript';
  const [form, fields] = useForm<{ transcript: string; captionsFile?: File }>({
    id: 'transcript',
    lastResult,
    defaultValue: { transcript: typedTranscript(cues) },
    shouldValidate: 'onSubmit',
  });
  return (
    <section aria-labelledby="transcript-form-title" className="mt-8 rounded-2xl bg-navy-light p-5 ring-1 ring-white/10 sm:p-6">
      <h2 id="transcript-form-title" className="text-xl font-bold text-white">
        Captions and transcript
      </h2>
      {nudge && !cues.length ? (
        <p className="mt-2 rounded-lg bg-accent/15 px-3 py-2 text-base text-accent">
          No transcript yet. Add one so fans can read along, and find this by what you say.
        </p>
      ) : null}
      <Form method="post" encType="multipart/form-data" preventScrollReset {...getFormProps(form)} className="mt-4 space-y-4">
        <FormAlert id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value="transcript" />
        <input type="hidden" name="itemId" value={itemId} />
        <TextareaField
          field={fields.transcript}
          label="Transcript"
          hint="One paragraph for each moment, starting with its time: “0:12 We wrote this in the van…”. Leave it empty to remove the transcript."
          textareaProps={{ rows: 6 }}
        />
        <FileField field={fields.captionsFile} label="Or a WebVTT captions file (.vtt)" accept=".vtt,text/vtt" />
        <SubmitButton pending={saving} className="sm:w-auto sm:px-8">
          Save the transcript
        </SubmitButton>
      </Form>
    </section>
  );
}
