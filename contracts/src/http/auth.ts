import { z } from 'zod';

/** `POST /v1/auth/session` → 201. */
export interface SessionCreated {
  token: string;
  secret: string;
}

/**
 * The decoded `X-AccessToken` header (base64 of this JSON). The server checks it by hand on every call
 * (docs/adr/0002-signed-request-fast-path.md): token 1–200 chars, timestamp whole seconds, signature
 * 64 lowercase hex digits.
 */
export interface AccessTokenHeader {
  token: string;
  timestamp: number;
  signature: string;
}

export const signinBody = z.object({
  identifier: z.string().trim().min(1).max(320),
  secret: z.string().min(1).max(1024),
});
export type SigninBody = z.infer<typeof signinBody>;

export interface User {
  id: number;
  email: string;
  firstname: string;
  lastname: string;
  currency: string | null;
  is_su: boolean;
  active: boolean;
  last_login: string | null;
  created_at: string;
}

export interface Vendor {
  id: number;
  key: string;
  name: string;
  currency: string;
  created_at: string;
}

export interface AppConfig {
  currency_default: string;
  default_locale: string;
  version: string;
}

export interface SessionUser {
  app: AppConfig;
  user: User | null;
  vendor: Vendor | null;
  vendor_client: null;
  authenticated: boolean;
}
