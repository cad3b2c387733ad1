import { en } from 'zod/locales';
import { config } from 'zod/mini';

// Every test reads zod's default messages ("Unrecognized key: …") as the server, which runs classic zod, and
// the signed-in pages (apps/web/src/lib/zod-messages.ts) give them. The contracts are zod/mini, which sets
// none: a test file that makes no classic schema would otherwise read "Invalid input".
config(en());
