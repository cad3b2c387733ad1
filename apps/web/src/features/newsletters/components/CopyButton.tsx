import { useEffect, useRef, useState } from 'react';
import { Button } from '#web/components/ui/Button';
import { CopyIcon } from '#web/components/ui/icons';
import { notifyError, notifySuccess } from '#web/lib/notify';

/** How long the button reads 'Copied' before it offers to copy again. */
const COPIED_RESET_MS = 3000;

/**
 * Copies `text` to the clipboard and says so (the button and a toast). `what` names the thing for screen
 * readers ("Copy address"), since a page may have several Copy buttons.
 */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // No clipboard (an insecure origin, a refused permission): the text is on the page to select.
      notifyError(`The ${what} could not be copied: select it and copy it yourself.`);
      return;
    }
    notifySuccess(`Copied ${text}`);
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_RESET_MS);
  }

  return (
    <Button small variant="secondary" onClick={() => void copy()}>
      <CopyIcon />
      {copied ? 'Copied' : 'Copy'}
      <span className="visually-hidden"> {what}</span>
    </Button>
  );
}
