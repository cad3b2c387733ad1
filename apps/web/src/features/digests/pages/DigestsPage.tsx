import { Link } from 'react-router';
import { paths } from '../../../app/paths';
import { buttonClassName } from '../../../components/ui/Button';
import { EmptyState } from '../../../components/ui/EmptyState';
import { InboxIcon, PlusIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/PageHeader';
import { useCurrentUser } from '../../profile/api/use-me';

/**
 * SPEC §2 "Digests page": the heading is the full name plus Digests. Digests and drafts arrive with the
 * digests issue; until then there is nothing to list and no endpoint to call.
 */
export function DigestsPage() {
  const user = useCurrentUser();
  return (
    <>
      <title>Digests · Digest</title>
      <PageHeader title={`${user.fullName} Digests`} />
      <EmptyState
        icon={<InboxIcon />}
        title="Nothing here yet."
        action={
          <Link className={buttonClassName()} to={paths.digestCreator}>
            <PlusIcon />
            Create Digest
          </Link>
        }
      >
        <p>Click the &quot;Create Digest&quot; button to get started.</p>
      </EmptyState>
    </>
  );
}
