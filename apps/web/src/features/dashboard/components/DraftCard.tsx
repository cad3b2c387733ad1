import { useId, useState } from 'react';
import { Button } from '#web/components/ui/Button';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog';
import { EditIcon, TrashIcon } from '#web/components/ui/icons';
import { useOpenBuilder } from '#web/features/builder';
import { type Draft, SourceIcons, useDeleteDraft } from '#web/features/digests';
import { defaultDigestName, useCurrentUser } from '#web/lib/session/use-me';
import styles from './Cards.module.css';

/** docs/product.md §2 draft card: 'Draft' label, name, source icons, Edit (→ /digestCreator), Delete Draft. */
export function DraftCard({ draft }: { draft: Draft }) {
  const titleId = useId();
  const { editDraft } = useOpenBuilder();
  const remove = useDeleteDraft();
  const user = useCurrentUser();
  const [confirming, setConfirming] = useState(false);
  // A draft without a name of its own is shown by the name the builder gives it (docs/product.md §5 default).
  const name = draft.name.trim() || defaultDigestName(user);
  return (
    <article className={`${styles.card} ${styles.draft}`} aria-labelledby={titleId}>
      <span className={styles.draftLabel}>Draft</span>
      <h3 id={titleId} className={styles.name}>
        {name}
      </h3>
      <SourceIcons sourceTypes={draft.sources.map((source) => source.type)} />
      <div className={styles.draftActions}>
        <Button
          small
          variant="secondary"
          onClick={() => editDraft(draft.digestId)}
          aria-label={`Edit ${name}`}
        >
          <EditIcon className={styles.buttonIcon} />
          Edit
        </Button>
        <Button small variant="ghost" className={styles.deleteDraft} onClick={() => setConfirming(true)}>
          <TrashIcon className={styles.buttonIcon} />
          Delete Draft
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Are you sure that you want to delete the draft ${name}?`}
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() => remove.mutate(draft.digestId, { onSuccess: () => setConfirming(false) })}
      />
    </article>
  );
}
