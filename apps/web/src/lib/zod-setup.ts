import { config } from 'zod/mini';

// The CSP has no 'unsafe-eval': keep zod from compiling parsers with `new Function` and from probing for it
// (the browser reports the probe as a violation). Zod reads this when schemas are created, so this module is
// imported first, before any module that defines a schema. One setting for classic zod and zod/mini alike:
// both keep their configuration in zod's core.
config({ jitless: true });
