import { findUserByEmail, insertUser, updateUser } from './modules/auth/repo';
import { seedLibraryFunctions } from './modules/functions/library';
import { addMember, findVendorByKey, insertVendor } from './modules/vendors/repo';
import { hashPassword, randomToken, verifyPassword } from './platform/crypto';
import type { Db } from './platform/db';

export const DEMO_VENDOR = { key: 'demo', name: 'Demo Vendor', currency: 'CHF' };

export interface SeedResult {
  email: string;
  /** Set only when this start created the admin with a generated password (shown once). */
  generatedPassword: string | null;
  created: boolean;
  /** This start set the existing admin's password to SEED_ADMIN_PASSWORD (the documented reset). */
  passwordReset: boolean;
}

/**
 * First start: a superuser in a demo vendor with the library functions. Later starts change nothing,
 * except that a `SEED_ADMIN_PASSWORD` differing from the admin's password resets it (a lost generated
 * password is recovered this way).
 */
export async function seed(db: Db, email: string, password: string | undefined): Promise<SeedResult> {
  const existing = await findUserByEmail(db, email);
  if (existing) {
    const reset = password !== undefined && !(await verifyPassword(password, existing.passwordHash));
    if (reset) await updateUser(db, existing.id, { passwordHash: await hashPassword(password) });
    return { email: existing.email, generatedPassword: null, created: false, passwordReset: reset };
  }
  const generated = password ? null : randomToken(12);
  const vendor = (await findVendorByKey(db, DEMO_VENDOR.key)) ?? (await insertVendor(db, DEMO_VENDOR));
  const user = await insertUser(db, {
    email,
    passwordHash: await hashPassword(password ?? generated!),
    firstname: 'Admin',
    lastname: '',
    isSu: true,
  });
  await addMember(db, vendor.id, user.id, 'owner');
  // Idempotent (by function_key): a demo vendor that already has them keeps its own versions.
  await seedLibraryFunctions(db, vendor.id);
  return { email, generatedPassword: generated, created: true, passwordReset: false };
}
