import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react';
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import type { TextareaHTMLAttributes } from 'react';
import { ErrorList, Field, FormAlert, inputClassName, SubmitButton } from '~/components/forms';
import { apiFor, isHttpError } from '~/utils/api.server';
import { invariantResponse, isOwnArtist, requireSubscriber } from '~/utils/auth.server';
import { readPostForm } from '~/utils/content-create.server';
import { ArtistProfileSchema } from '#contract/artist-profile';
import { parseGuardedForm } from '~/utils/form-guard.server';
import { formConstraint, parseForm } from '~/utils/form-schema';
import { formatPrice } from '#contract/money';
import type { ArtistResponse } from '#contract/users';
import { DEFAULT_AVATAR, subscriberCount, type Artist } from '~/utils/mappers';
import type { SubscriptionDetail } from '#contract/payments';
import { ArtistStudioLinks } from '~/components/artist-studio-links';
import { StartConversationForm } from '~/components/start-conversation';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.mode === 'artist' ? 'Your fan club' : 'Your membership'} · ${data.artist.name} | Stagedoor` : 'Account | Stagedoor' },
];

interface Subscriber {
  _id: string;
  username: string;
  name: string;
  avatar: string;
  startedAt: string;
  type: string;
}

/**
 * /{artist}/account (spec §2, subscribed branch). A fan sees their membership (started, renews or ends on, price
 * paid) and turns the yearly renewal off or on. The artist who owns the page edits their profile and offer and sees
 * their subscribers. Both are plain forms that work without JavaScript.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const { user, artist } = await requireSubscriber(api, args.params.artistUsername);
  const saved = new URL(args.request.url).searchParams.get('saved');
  if (isOwnArtist(user, artist)) {
    const [subscribers, raw] = await Promise.all([
      api.get<{ data: { data: Subscriber[]; total: number } }>('/performers/me/subscribers', { params: { limit: 10 } }),
      // The switch itself (the mapped artist only says whether a video shows).
      api.get<{ data: ArtistResponse }>(`/performers/${encodeURIComponent(artist.username)}`),
    ]);
    return {
      mode: 'artist' as const,
      artist,
      saved,
      subscribers: subscribers.data.data,
      total: subscribers.data.total,
      welcomeVideoOn: raw.data.activateWelcomeVideo ?? false,
      subscription: null,
    };
  }
  const subscription = await api.get<{ data: SubscriptionDetail }>(`/subscriptions/performers/${encodeURIComponent(artist.id)}`);
  return { mode: 'fan' as const, artist, saved, subscribers: [], total: 0, welcomeVideoOn: false, subscription: subscription.data };
}

interface AccountActionData {
  intent: 'auto-renew' | 'profile' | 'images';
  error?: string;
  result?: SubmissionResult<string[]>;
  imageErrors?: Record<string, string[]>;
}

const IMAGE_SLOTS = [
  { name: 'avatar', label: 'Avatar' },
  { name: 'cover', label: 'Cover' },
  { name: 'heroImage', label: 'Hero image' },
  { name: 'headlineImage', label: 'Headline image' },
] as const;

const IMAGE_RULES = Object.fromEntries(IMAGE_SLOTS.map((slot) => [slot.name, 'image' as const]));

export async function action(args: ActionFunctionArgs) {
  const { request, params } = args;
  const api = apiFor(args);
  const { user, artist } = await requireSubscriber(api, params.artistUsername);
  const here = `/${artist.username}/account`;

  // The images form is the page's one multipart form: its files stream to POST /media?kind=image as they arrive.
  if ((request.headers.get('Content-Type') ?? '').startsWith('multipart/form-data')) {
    invariantResponse(isOwnArtist(user, artist), 'Bad request', { status: 400 });
    const { formData, uploads, uploadErrors } = await readPostForm(api, request, IMAGE_RULES);
    invariantResponse(formData.get('intent') === 'images', 'Bad request', { status: 400 });
    if (Object.keys(uploadErrors).length) return json<AccountActionData>({ intent: 'images', imageErrors: uploadErrors }, { status: 400 });
    const chosen = Object.fromEntries(Object.entries(uploads).map(([slot, upload]) => [slot, upload.id]));
    if (!Object.keys(chosen).length) {
      return json<AccountActionData>({ intent: 'images', imageErrors: { form: ['Choose at least one image to upload.'] } }, { status: 400 });
    }
    await api.put('/performers/me/images', chosen);
    throw redirect(`${here}?saved=images`);
  }

  const formData = await request.formData();
  const intent = formData.get('intent');

  if (intent === 'auto-renew') {
    const subscriptionId = String(formData.get('subscriptionId') ?? '');
    try {
      await api.put(
        `/subscriptions/${encodeURIComponent(subscriptionId)}/auto-renew`,
        { autoRenew: formData.get('autoRenew') === 'true' },
        { handle: [404] },
      );
    } catch (error) {
      if (isHttpError(error, 404)) return json<AccountActionData>({ intent: 'auto-renew', error: error.message }, { status: 404 });
      throw error;
    }
    throw redirect(`${here}?saved=renewal`);
  }

  if (intent === 'profile' && isOwnArtist(user, artist)) {
    const submission = parseGuardedForm(formData, ArtistProfileSchema);
    if (submission.status !== 'success') return json<AccountActionData>({ intent: 'profile', result: submission.reply() }, { status: 400 });
    try {
      await api.put('/performers/me', submission.value);
    } catch (error) {
      if (isHttpError(error, 400)) return json<AccountActionData>({ intent: 'profile', result: submission.reply({ fieldErrors: error.fieldErrors }) }, { status: 400 });
      throw error;
    }
    throw redirect(`${here}?saved=profile`);
  }
  throw new Response('Bad request', { status: 400 });
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
const formatDate = (iso: string) => dateFormat.format(new Date(iso));

export default function Account() {
  const data = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-4xl px-4 pb-20 pt-10 sm:px-6 sm:pt-14">
      <p className="text-sm font-semibold uppercase tracking-widest text-accent">{data.artist.name}</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-white sm:text-5xl">
        {data.mode === 'artist' ? 'Your fan club' : 'Your membership'}
      </h1>
      {data.mode === 'fan' && data.subscription ? (
        <Membership artist={data.artist} subscription={data.subscription} saved={data.saved === 'renewal'} />
      ) : (
        <>
          <div className="mt-10">
            <ArtistStudioLinks artistUsername={data.artist.username} />
          </div>
          <ArtistAccount
            artist={data.artist}
            subscribers={data.subscribers}
            total={data.total}
            welcomeVideoOn={data.welcomeVideoOn}
            saved={data.saved}
          />
        </>
      )}
    </div>
  );
}

function Membership({ artist, subscription, saved }: { artist: Artist; subscription: SubscriptionDetail; saved: boolean }) {
  const actionData = (useActionData<typeof action>() as AccountActionData | undefined);
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'auto-renew';
  const free = subscription.type === 'free';
  return (
    <section aria-labelledby="membership-title" className="mt-10 rounded-2xl bg-navy-light p-6 ring-1 ring-white/10 sm:p-8">
      <h2 id="membership-title" className="text-2xl font-bold text-white">
        Membership details
      </h2>
      {saved ? (
        <p role="status" className="mt-4 rounded-lg bg-accent/15 px-3 py-2 text-base text-accent">
          {subscription.autoRenew ? 'Auto-renewal is on again.' : 'Auto-renewal is off.'}
        </p>
      ) : null}
      <FormAlert errors={actionData?.error ? [actionData.error] : undefined} />
      <dl className="mt-6 grid gap-5 sm:grid-cols-3">
        <Fact label="Member since">{formatDate(subscription.startedAt)}</Fact>
        <Fact label={subscription.autoRenew ? 'Renews on' : 'Ends on'}>{formatDate(subscription.expiresAt)}</Fact>
        <Fact label="Price paid">{free ? 'Free' : `${formatPrice(subscription.pricePaid, subscription.currency)} a year`}</Fact>
      </dl>
      <p className="mt-6 text-base text-white/80">
        {subscription.autoRenew
          ? free
            ? `Your free membership renews by itself on ${formatDate(subscription.expiresAt)}.`
            : `Your membership renews on ${formatDate(subscription.expiresAt)} at ${formatPrice(artist.yearlyPrice, artist.currency)} a year.`
          : `Auto-renewal is off: your membership ends on ${formatDate(subscription.expiresAt)} and you will not be charged again.`}
      </p>
      <Form method="post" className="mt-6 max-w-xs">
        <input type="hidden" name="intent" value="auto-renew" />
        <input type="hidden" name="subscriptionId" value={subscription._id} />
        <input type="hidden" name="autoRenew" value={subscription.autoRenew ? 'false' : 'true'} />
        <SubmitButton pending={pending}>{subscription.autoRenew ? 'Turn off auto-renewal' : 'Turn auto-renewal back on'}</SubmitButton>
      </Form>
    </section>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-sm text-white/70">{label}</dt>
      <dd className="mt-1 text-lg font-semibold text-white">{children}</dd>
    </div>
  );
}

function ArtistAccount({
  artist,
  subscribers,
  total,
  welcomeVideoOn,
  saved,
}: {
  artist: Artist;
  subscribers: Subscriber[];
  total: number;
  welcomeVideoOn: boolean;
  saved: string | null;
}) {
  return (
    <div className="mt-10 grid gap-10 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <section
        aria-labelledby="subscribers-title"
        className="h-fit rounded-2xl bg-navy-light p-6 ring-1 ring-white/10 lg:col-start-2 lg:row-start-1"
      >
        <h2 id="subscribers-title" className="text-xl font-bold text-white">
          Subscribers
        </h2>
        <p className="mt-2 text-3xl font-extrabold text-accent">{subscriberCount(total)}</p>
        {subscribers.length ? (
          <>
            <h3 className="mt-6 text-sm font-semibold uppercase tracking-wider text-white/70">Recent</h3>
            <ul className="mt-3 space-y-3">
              {subscribers.map((s) => (
                <li key={s._id} className="flex items-start gap-3">
                  <img src={s.avatar || DEFAULT_AVATAR} alt="" className="h-9 w-9 shrink-0 rounded-full bg-white/10 object-cover" />
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-base font-semibold text-white">{s.name || s.username}</p>
                    <p className="text-sm text-white/70">Joined {formatDate(s.startedAt)}</p>
                    {/* The artist may write first to a subscriber (docs/messages.md); a plain form, as the fan's button. */}
                    <StartConversationForm
                      artistUsername={artist.username}
                      fanId={s._id}
                      className="rounded text-sm font-semibold text-accent underline-offset-4 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent disabled:opacity-70"
                    >
                      Message<span className="sr-only"> {s.name || s.username}</span>
                    </StartConversationForm>
                  </div>
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p className="mt-4 text-base text-white/80">No subscribers yet. Share your join page: /{artist.username}/join</p>
        )}
      </section>
      <div className="min-w-0 lg:col-start-1 lg:row-start-1">
        <ProfileForm artist={artist} welcomeVideoOn={welcomeVideoOn} saved={saved === 'profile'} />
        <ImagesForm artist={artist} saved={saved === 'images'} />
      </div>
    </div>
  );
}

function ProfileForm({ artist, welcomeVideoOn, saved }: { artist: Artist; welcomeVideoOn: boolean; saved: boolean }) {
  const actionData = (useActionData<typeof action>() as AccountActionData | undefined);
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'profile';
  const [form, fields] = useForm({
    id: 'profile',
    lastResult: actionData?.intent === 'profile' ? actionData.result : undefined,
    defaultValue: {
      name: artist.name,
      bio: artist.bio,
      yearlyPrice: artist.yearlyPrice.toFixed(2),
      headlineOfferDescription: artist.headlineOfferDescription,
      subscriptionPerks: artist.subscriptionPerks.join('\n'),
      successPageTitle: artist.successPageTitle,
      secondarySuccessMessage: artist.secondarySuccessMessage,
      additionalSuccessMessage: artist.additionalSuccessMessage,
      heroImageAltText: artist.heroImageAltText,
      headlineImageAltText: artist.headlineImageAltText,
      activateWelcomeVideo: welcomeVideoOn ? 'on' : undefined,
    },
    constraint: formConstraint(ArtistProfileSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, ArtistProfileSchema),
  });
  return (
    <section aria-labelledby="profile-title" className="rounded-2xl bg-navy-light p-6 ring-1 ring-white/10 sm:p-8">
      <h2 id="profile-title" className="text-2xl font-bold text-white">
        Profile and offer
      </h2>
      {saved ? (
        <p role="status" className="mt-4 rounded-lg bg-accent/15 px-3 py-2 text-base text-accent">
          Saved. Fans see the changes now.
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="mt-6 space-y-6">
        <FormAlert id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value="profile" />
        <fieldset className="space-y-5">
          <legend className="text-lg font-semibold text-white">Your profile</legend>
          <Field label="Name" inputProps={getInputProps(fields.name, { type: 'text' })} errors={fields.name.errors} errorId={fields.name.errorId} />
          <TextArea label="Bio" props={getTextareaProps(fields.bio)} errors={fields.bio.errors} errorId={fields.bio.errorId} rows={4} />
        </fieldset>
        <hr className="border-white/10" />
        <fieldset className="space-y-5">
          <legend className="text-lg font-semibold text-white">Your offer</legend>
          <Field
            label="Yearly price (USD)"
            inputProps={{ ...getInputProps(fields.yearlyPrice, { type: 'text' }), inputMode: 'decimal' }}
            errors={fields.yearlyPrice.errors}
            errorId={fields.yearlyPrice.errorId}
            hint="0 makes joining free. A new price applies to new members and to renewals."
          />
          <TextArea
            label="Offer description"
            props={getTextareaProps(fields.headlineOfferDescription)}
            errors={fields.headlineOfferDescription.errors}
            errorId={fields.headlineOfferDescription.errorId}
            rows={4}
          />
          <TextArea
            label="Perks, one a line"
            props={getTextareaProps(fields.subscriptionPerks)}
            errors={fields.subscriptionPerks.errors}
            errorId={fields.subscriptionPerks.errorId}
            rows={6}
          />
          <label className="flex items-center gap-3 text-base text-white">
            <input
              {...getInputProps(fields.activateWelcomeVideo, { type: 'checkbox' })}
              className="h-5 w-5 rounded border-white/40 bg-white/10 text-accent focus:ring-accent"
            />
            Show my welcome video to members
          </label>
        </fieldset>
        <hr className="border-white/10" />
        <fieldset className="space-y-5">
          <legend className="text-lg font-semibold text-white">The page after joining</legend>
          <Field
            label="Title"
            inputProps={getInputProps(fields.successPageTitle, { type: 'text' })}
            errors={fields.successPageTitle.errors}
            errorId={fields.successPageTitle.errorId}
          />
          <TextArea
            label="Message"
            props={getTextareaProps(fields.secondarySuccessMessage)}
            errors={fields.secondarySuccessMessage.errors}
            errorId={fields.secondarySuccessMessage.errorId}
            rows={2}
          />
          <TextArea
            label="Additional message"
            props={getTextareaProps(fields.additionalSuccessMessage)}
            errors={fields.additionalSuccessMessage.errors}
            errorId={fields.additionalSuccessMessage.errorId}
            rows={2}
          />
        </fieldset>
        <hr className="border-white/10" />
        <fieldset className="space-y-5">
          <legend className="text-lg font-semibold text-white">Image descriptions</legend>
          <Field
            label="Hero image description (alt text)"
            inputProps={getInputProps(fields.heroImageAltText, { type: 'text' })}
            errors={fields.heroImageAltText.errors}
            errorId={fields.heroImageAltText.errorId}
          />
          <Field
            label="Headline image description (alt text)"
            inputProps={getInputProps(fields.headlineImageAltText, { type: 'text' })}
            errors={fields.headlineImageAltText.errors}
            errorId={fields.headlineImageAltText.errorId}
          />
        </fieldset>
        <SubmitButton pending={pending} className="sm:w-auto">
          Save changes
        </SubmitButton>
      </Form>
    </section>
  );
}

function ImagesForm({ artist, saved }: { artist: Artist; saved: boolean }) {
  const actionData = useActionData<typeof action>() as AccountActionData | undefined;
  const errors = actionData?.intent === 'images' ? actionData.imageErrors : undefined;
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'images';
  const current: Record<string, string | null> = {
    avatar: artist.avatarUrl,
    cover: artist.coverUrl,
    heroImage: artist.heroImage,
    headlineImage: artist.headlineImage,
  };
  const alt: Record<string, string> = { heroImage: artist.heroImageAltText, headlineImage: artist.headlineImageAltText };
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
      <Form method="post" encType="multipart/form-data" className="mt-6 space-y-6">
        <FormAlert errors={errors?.form} />
        <input type="hidden" name="intent" value="images" />
        <div className="grid gap-6 sm:grid-cols-2">
          {IMAGE_SLOTS.map((slot) => {
            const error = errors?.[slot.name];
            return (
              <div key={slot.name}>
                <label htmlFor={`image-${slot.name}`} className="mb-1.5 block text-sm font-medium text-white/90">
                  {slot.label}
                </label>
                {current[slot.name] ? (
                  <img src={current[slot.name]!} alt={alt[slot.name] ?? ''} className="mb-2 aspect-video w-full rounded-lg bg-black/30 object-cover" />
                ) : null}
                <input
                  id={`image-${slot.name}`}
                  name={slot.name}
                  type="file"
                  accept="image/jpeg,image/png,image/webp,image/gif"
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `image-${slot.name}-error` : undefined}
                  className="block w-full text-sm text-white/85 file:mr-3 file:rounded-full file:border-0 file:bg-white/15 file:px-4 file:py-2 file:font-semibold file:text-white hover:file:bg-white/25"
                />
                <ErrorList id={`image-${slot.name}-error`} errors={error} />
              </div>
            );
          })}
        </div>
        <SubmitButton pending={pending} className="sm:w-auto">
          Upload images
        </SubmitButton>
      </Form>
    </section>
  );
}

function TextArea({
  label,
  props,
  errors,
  errorId,
  rows,
}: {
  label: string;
  props: TextareaHTMLAttributes<HTMLTextAreaElement> & { id: string; key?: string };
  errors?: string[];
  errorId?: string;
  rows: number;
}) {
  const { key, ...rest } = props;
  return (
    <div>
      <label htmlFor={rest.id} className="mb-1.5 block text-sm font-medium text-white/90">
        {label}
      </label>
      <textarea key={key} {...rest} rows={rows} className={inputClassName(Boolean(errors?.length))} />
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}
