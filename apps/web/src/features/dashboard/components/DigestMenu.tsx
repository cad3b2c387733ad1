import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useState } from 'react';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog';
import { CopyIcon, MoreIcon, TrashIcon } from '#web/components/ui/icons';
import { useDeleteDigest, useDuplicateDigest } from '#web/features/digests';
import styles from './DigestMenu.module.css';

/** docs/product.md §2 digest card menu: Duplicate, Delete Digest (asks first). */
export function DigestMenu({
  digestId,
  name,
  onDeleted,
}: {
  digestId: string;
  name: string;
  onDeleted?: () => void;
}) {
  const duplicate = useDuplicateDigest();
  const remove = useDeleteDigest();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className={styles.trigger} aria-label={`More actions for ${name}`}>
          <MoreIcon />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className={styles.content} align="end" sideOffset={4}>
            <DropdownMenu.Item
              className={styles.item}
              disabled={duplicate.isPending}
              onSelect={() => duplicate.mutate(digestId)}
            >
              <CopyIcon />
              Duplicate
            </DropdownMenu.Item>
            <DropdownMenu.Item
              className={`${styles.item} ${styles.danger}`}
              onSelect={() => setConfirming(true)}
            >
              <TrashIcon />
              Delete Digest
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Are you sure that you want to delete ${name}?`}
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(digestId, {
            onSuccess: () => {
              setConfirming(false);
              onDeleted?.();
            },
          })
        }
      />
    </>
  );
}
