import type { ParseKeys } from 'i18next';

/** Every translation key (typed from the en_US texts, app/i18n-keys.d.ts). */
export type TextKey = ParseKeys;

/** The prefixes `P` for which `P.<suffix>` is a key: lets shared components take a typed key prefix. */
export type KeyPrefix<Suffix extends string> = TextKey extends infer K
  ? K extends `${infer P}.${Suffix}`
    ? P
    : never
  : never;
