import { getFormProps, useForm } from '@conform-to/react';
import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormPage, accentLinkClass } from '~/components/form-page';
import { FileField, IMAGE_ACCEPT } from '~/components/forms';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { SetupSteps } from '~/components/setup-steps';
import { artAction, loadArt } from './art.server';
import { ART_SLOTS, type ArtSlot } from './slots';

export const meta: MetaFunction = () => [{ title: 'Your art · Set up Stagedoor | Stagedoor' }];

export const loader = loadArt;
export const action = artAction;

export default function SetupArt() {
  const { current } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm<Record<ArtSlot, File>>({ id: 'setup-art', lastResult });
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
        {ART_SLOTS.map((slot) => (
          <FileField
            key={slot.name}
            field={fields[slot.name]}
            label={slot.label}
            hint={slot.hint}
            accept={IMAGE_ACCEPT}
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
