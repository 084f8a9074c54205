import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { FormPage, accentLinkClass } from '~/components/form-page';
import { SetupSteps } from '~/components/setup-steps';
import { CtaLink } from '~/components/subscription-offer';
import { apiFor } from '~/utils/api.server';
import { requireSetUpArtist } from '~/utils/setup.server';

export const meta: MetaFunction = () => [{ title: 'Payouts · Set up Stagedoor | Stagedoor' }];

/**
 * The setup's last step: no form, a word on payouts (connected later, from the earnings page; the money waits for
 * them) and the way into the studio. An artist's page only: for anyone else it does not exist.
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireSetUpArtist(apiFor(args));
  return { username: user.username };
}

export default function SetupPayouts() {
  const { username } = useLoaderData<typeof loader>();
  return (
    <FormPage title="Your club is open" intro={<p>Fans can find it at /{username} and join it now.</p>} aside={<SetupSteps current={4} />}>
      <h2 className="text-xl font-bold text-white">Payouts can wait</h2>
      <p className="mt-3 text-base leading-relaxed text-white/80">
        To be paid, connect a payout account on your earnings page whenever you are ready. Until then, what fans pay is held for you.
      </p>
      <p className="mt-3 text-base">
        <Link to={`/${username}/account/earnings`} className={accentLinkClass}>
          Set up payouts on your earnings page
        </Link>
      </p>
      <p className="mt-3 text-base leading-relaxed text-white/80">
        Your picture, cover and the rest of your profile can be changed in the studio.
      </p>
      <CtaLink to={`/${username}/account`} className="mt-8 w-full">
        Go to your studio
      </CtaLink>
    </FormPage>
  );
}
