// The toast library and its style sheet, one lazy chunk loaded with the first toast (lib/toasts.tsx).
import 'sonner/dist/styles.css';

export { Toaster, toast } from 'sonner';
