import { hash, verify } from '@node-rs/argon2';

// OWASP Password Storage Cheat Sheet: argon2id, 19 MiB, 2 iterations, 1 lane.
const ARGON2_OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id: a const enum, not importable under verbatimModuleSyntax */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}

// Checked when no account matches, so a wrong e-mail costs as long as a wrong password.
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword('not a real password, only for timing');
  await verify(await dummyHash, password).catch(() => false);
  return false;
}
