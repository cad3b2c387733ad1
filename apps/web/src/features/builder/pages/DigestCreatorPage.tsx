import { Link } from 'react-router';
import { paths } from '../../../app/paths';
import { EmptyState } from '../../../components/ui/EmptyState';
import { SparkIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/PageHeader';
import { defaultDigestName, useCurrentUser } from '../../profile/api/use-me';

/** /digestCreator: a placeholder until the builder lands; titled with the default digest name (SPEC §5). */
export function DigestCreatorPage() {
  const user = useCurrentUser();
  const name = defaultDigestName(user);
  return (
    <>
      <title>{`${name} · Digest`}</title>
      <PageHeader title={name} />
      <EmptyState icon={<SparkIcon />} title="The digest builder is on its way">
        <p>
          Soon you will add sources here and choose when your Digest arrives. Meanwhile, your account is
          ready.
        </p>
        <p>
          <Link to={paths.digests}>Go to Digests</Link>
        </p>
      </EmptyState>
    </>
  );
}
