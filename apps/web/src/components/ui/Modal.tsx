import * as Dialog from '@radix-ui/react-dialog';
import { type ReactNode, type RefObject, useRef } from 'react';
import styles from './Modal.module.css';

interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** Announced with the title; when absent the dialog has no description. */
  description?: ReactNode;
  children?: ReactNode;
  /** `alertdialog` for confirmations. */
  role?: 'dialog' | 'alertdialog';
  size?: 'small' | 'medium';
  /** Hides the × button (confirmations have their own Cancel). */
  hideClose?: boolean;
  /** The element that gets focus on open; by default the first focusable one. */
  initialFocus?: RefObject<HTMLElement | null>;
}

/** A modal dialog (Radix): focus trapped inside, Escape and the overlay close it, focus returns after. */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  role = 'dialog',
  size = 'medium',
  hideClose = false,
  initialFocus,
}: ModalProps) {
  // Opened from state rather than a Dialog.Trigger: remember what had focus and give it back on close.
  const returnFocus = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={`${styles.content} ${styles[size]}`}
          role={role}
          onOpenAutoFocus={(event) => {
            returnFocus.current =
              document.activeElement instanceof HTMLElement ? document.activeElement : null;
            const target = initialFocus?.current;
            if (target) {
              event.preventDefault();
              target.focus();
            }
          }}
          onCloseAutoFocus={(event) => {
            const target = returnFocus.current;
            if (target?.isConnected) {
              event.preventDefault();
              target.focus();
            }
          }}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div className={styles.header}>
            <Dialog.Title className={styles.title}>{title}</Dialog.Title>
            {hideClose ? null : (
              <Dialog.Close className={styles.close} aria-label="Close">
                <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">
                  <path
                    d="M5 5l10 10M15 5L5 15"
                    stroke="currentColor"
                    strokeWidth="2"
                    strokeLinecap="round"
                    fill="none"
                  />
                </svg>
              </Dialog.Close>
            )}
          </div>
          {description ? (
            <Dialog.Description className={styles.description}>{description}</Dialog.Description>
          ) : null}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
