import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form, useNavigation } from '@remix-run/react';
import { FileField, IMAGE_ACCEPT } from '~/components/forms';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import type { Artist } from '~/utils/mappers';
import { IMAGE_SLOTS, type ImageSlot } from './image-slots';

/**
 * The artist's avatar, cover, hero and headline images: a multipart form whose files stream to the api as they
 * are sent. Each field shows the image it holds now, and the file chosen to replace it while it is on its way.
 */
export function ImagesForm({ artist, saved, lastResult }: { artist: Artist; saved: boolean; lastResult?: SubmissionResult<string[]> }) {
  const navigation = useNavigation();
  // Remix holds the form data while the form is being sent and while the page reloads after it.
  const sending = navigation.formData?.get('intent') === 'images';
  const [form, fields] = useForm<Record<ImageSlot, File>>({ id: 'images', lastResult });
  const current: Record<ImageSlot, string | null> = {
    avatar: artist.avatarUrl,
    cover: artist.coverUrl,
    heroImage: artist.heroImage,
    headlineImage: artist.headlineImage,
  };
  const alt: Partial<Record<ImageSlot, string>> = { heroImage: artist.heroImageAltText, headlineImage: artist.headlineImageAltText };
  return (
    <section aria-labelledby="images-title" className="mt-10 rounded-2xl bg-navy-light p-6 ring-1 ring-white/10 sm:p-8">
      <h2 id="images-title" className="text-2xl font-bold text-white">
        Images
      </h2>
      <p className="mt-2 text-base text-white/80">JPEG, PNG, WebP or GIF, up to 15 MB. Describe the hero and headline images above.</p>
      {saved ? (
        <p role="status" className="mt-4 rounded-lg bg-accent/15 px-3 py-2 text-base text-accent">
          Images saved.
        </p>
      ) : null}
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="mt-6 space-y-6">
        <FormAlert id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value="images" />
        <div className="grid gap-6 sm:grid-cols-2">
          {IMAGE_SLOTS.map((slot) => {
            const src = current[slot.name];
            return (
              <FileField
                key={slot.name}
                field={fields[slot.name]}
                label={slot.label}
                accept={IMAGE_ACCEPT}
                uploading={sending && navigation.state === 'submitting'}
                preview={
                  src ? (
                    <img src={src} alt={alt[slot.name] ?? ''} className="mb-2 aspect-video w-full rounded-lg bg-black/30 object-cover" />
                  ) : null
                }
              />
            );
          })}
        </div>
        <SubmitButton pending={sending} className="sm:w-auto">
          Upload images
        </SubmitButton>
      </Form>
    </section>
  );
}
