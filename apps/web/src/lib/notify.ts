import { loadSonner } from './toasts';

/** docs/product.md §8: an identical error is not shown again within 4 s, an identical success within 2 s. */
const ERROR_REPEAT_MS = 4000;
const SUCCESS_REPEAT_MS = 2000;

const lastShown = {
  error: { message: '', at: -Infinity },
  success: { message: '', at: -Infinity },
  info: { message: '', at: -Infinity },
};

function shouldShow(kind: keyof typeof lastShown, message: string, windowMs: number): boolean {
  const now = Date.now();
  const last = lastShown[kind];
  if (last.message === message && now - last.at < windowMs) return false;
  lastShown[kind] = { message, at: now };
  return true;
}

export function notifyError(message: string): void {
  if (shouldShow('error', message, ERROR_REPEAT_MS))
    void loadSonner().then(({ toast }) => toast.error(message));
}

export function notifySuccess(message: string): void {
  if (shouldShow('success', message, SUCCESS_REPEAT_MS))
    void loadSonner().then(({ toast }) => toast.success(message));
}

/** Something the user asked for did not happen, for a reason that is not a fault (nothing new to send). */
export function notifyInfo(message: string): void {
  if (shouldShow('info', message, SUCCESS_REPEAT_MS))
    void loadSonner().then(({ toast }) => toast.info(message));
}
