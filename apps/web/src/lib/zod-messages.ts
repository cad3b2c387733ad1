import { en } from 'zod/locales';
import { config } from 'zod/mini';

// zod/mini brings no messages of its own: a rule given none of ours reads "Invalid input". Classic zod, which
// the server runs, sets the English ones when its first schema is made, and so did the web app while its
// signed-in pages used classic zod. The pages chunk imports this module to keep that: the same default
// messages as the server's answers on every signed-in page, without their ≈ 1.3 kB in the entry (the
// signed-out forms give every message themselves).
config(en());
