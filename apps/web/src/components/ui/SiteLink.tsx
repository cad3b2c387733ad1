import { isInAppLink } from '@digest/contracts';
import type { ComponentPropsWithRef } from 'react';
import { Link } from 'react-router';

/** A link to one of the site's documents: a page of the app, or the operator's page elsewhere (a new tab). */
export function SiteLink({ href, ...props }: ComponentPropsWithRef<'a'> & { href: string }) {
  if (isInAppLink(href)) return <Link to={href} {...props} />;
  return <a href={href} target="_blank" rel="noopener noreferrer" {...props} />;
}
