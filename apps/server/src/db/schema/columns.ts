import { customType } from 'drizzle-orm/pg-core';

/** Binary data: node-postgres reads it as a Buffer, PGlite as a Uint8Array; both become Buffers. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});
