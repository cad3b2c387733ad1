// The toast library and its style sheets, one lazy chunk loaded with the first toast (lib/toasts.tsx).
// The app's colours for toasts come after sonner's, with the same selector, so they win.
import 'sonner/dist/styles.css';
import '../styles/toasts.css';

export { Toaster, toast } from 'sonner';
