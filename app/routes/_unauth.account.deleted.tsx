import type { MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';
import { accentLinkClass, FormPage } from '~/components/form-page';

export const meta: MetaFunction = () => [{ title: 'Your account is deleted | Stagedoor' }];

/** Where deleting an account lands: signed out, with what happens next. */
export default function AccountDeleted() {
  return (
    <FormPage
      title="Your account is deleted"
      intro={<p>Your memberships will not renew and nothing more will be charged. We have removed your details.</p>}
    >
      <p className="text-base text-white/85">
        To join a club again, sign up from the artist’s page with a new account.{' '}
        <Link to="/" className={accentLinkClass}>
          Go to the Stagedoor home page
        </Link>
      </p>
    </FormPage>
  );
}
