import { getFormProps, useForm } from '@conform-to/react';
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import * as z from 'zod/mini';
import { FormPage, accentLinkClass } from '~/components/form-page';
import { FileField } from '~/components/forms';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { SetupSteps } from '~/components/setup-steps';
import { apiFor, isHttpError, type ApiClient } from '~/utils/api.server';
import { getOptionalUser, requireArtist } from '~/utils/auth.server';
import { DEFAULT_AVATAR } from '~/utils/mappers';
import { readPostForm } from '~/utils/content-create.server';
import { parseGuardedForm } from '~/utils/form-guard.server';
import { apiErrorReply, formReply } from '~/utils/form-reply.server';

export const meta: MetaFunction = () => [{ title: 'Your art · Set up Stagedoor | Stagedoor' }];

const ACCEPT = 'image/jpeg,image/png,image/webp,image/gif';
const SLOTS = [
  { name: 'avatar', label: 'Picture', hint: 'Square works best: it sits beside your name and your posts.' },
  { name: 'cover', label: 'Cover', hint: 'Wide, across the top of your club page.' },
] as const;
type Slot = (typeof SLOTS)[number]['name'];

/**
 * The setup's third step: the club's picture and cover, both optional (the studio has them, and the hero and
 * headline images, whenever the artist wants). An artist's page only: for anyone else it does not exist.
 */
async function requireNewArtist(api: ApiClient) {
  const user = await getOptionalUser(api);
  if (!user?.artist) throw new Response('Not found', { status: 404 });
  return requireArtist(api, user.username);
}

export async function loader(args: LoaderFunctionArgs) {
  const artist = await requireNewArtist(apiFor(args));
  // The stand-in avatar is no picture of theirs: only an image they chose is shown as theirs.
  const avatar = artist.avatarUrl === DEFAULT_AVATAR ? null : artist.avatarUrl;
  return { current: { avatar, cover: artist.coverUrl } satisfies Record<Slot, string | null> };
}

export async function action(args: ActionFunctionArgs) {
  const api = apiFor(args);
  await requireNewArtist(api);
  // Each chosen file streams to POST /media as it arrives; a field left empty keeps what the club has.
  const { formData, uploads, uploadErrors } = await readPostForm(api, args.request, { avatar: 'image', cover: 'image' });
  const submission = parseGuardedForm(formData, z.object({}));
  if (Object.keys(uploadErrors).length) return formReply(submission, { fieldErrors: uploadErrors });
  const chosen = Object.fromEntries(Object.entries(uploads).map(([slot, upload]) => [slot, upload.id]));
  if (Object.keys(chosen).length) {
    try {
      await api.put('/performers/me/images', chosen, { handle: [400] });
    } catch (error) {
      if (!isHttpError(error)) throw error;
      return apiErrorReply(submission, error);
    }
  }
  throw redirect('/setup/payouts', 303);
}

export default function SetupArt() {
  const { current } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm<Record<Slot, File>>({ id: 'setup-art', lastResult });
  const sending = navigation.state === 'submitting';
  return (
    <FormPage
      title="Give your club a face"
      intro={<p>A picture and a cover are what fans see first. Both can wait: the studio has them whenever you like.</p>}
      aside={<SetupSteps current={3} />}
    >
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-6">
        <FormAlert id={form.errorId} errors={form.errors} />
        <p className="text-base text-white/80">JPEG, PNG, WebP or GIF, up to 15 MB each.</p>
        {SLOTS.map((slot) => (
          <FileField
            key={slot.name}
            field={fields[slot.name]}
            label={slot.label}
            hint={slot.hint}
            accept={ACCEPT}
            uploading={sending}
            preview={
              current[slot.name] ? (
                <img src={current[slot.name]!} alt="" className="mb-2 aspect-video w-full rounded-lg bg-black/30 object-cover" />
              ) : null
            }
          />
        ))}
        <SubmitButton pending={sending}>Save and continue</SubmitButton>
      </Form>
      <p className="mt-6 text-center text-base">
        <Link to="/setup/payouts" className={accentLinkClass}>
          Skip for now
        </Link>
      </p>
    </FormPage>
  );
}
