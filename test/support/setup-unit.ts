import * as z from 'zod';

// Same setting as every extension entry point: no eval-based fast paths (MV3 CSP).
z.config({ jitless: true });
