import { Button } from './Button';
import styles from './ConfirmDialog.module.css';
import { Modal } from './Modal';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The question, e.g. 'Are you sure you remove the photo?' */
  title: string;
  confirmLabel: string;
  onConfirm: () => void;
  /** Shows a spinner on the confirm button and keeps the dialog open. */
  pending?: boolean;
}

/** A yes/no question (role="alertdialog") with Cancel and a destructive confirm button. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  confirmLabel,
  onConfirm,
  pending = false,
}: ConfirmDialogProps) {
  return (
    <Modal
      open={open}
      onOpenChange={(next) => {
        if (!pending) onOpenChange(next);
      }}
      title={title}
      role="alertdialog"
      size="small"
      hideClose
    >
      <div className={styles.actions}>
        <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={pending}>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} loading={pending}>
          {confirmLabel}
        </Button>
      </div>
    </Modal>
  );
}
