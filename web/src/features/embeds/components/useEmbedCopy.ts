import type { EmbedCode } from '@llmor/contracts';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess, SETTINGS_AREA_TOAST } from '../../../lib/notify';
import { getEmbedCode } from '../api/getEmbedCode';
import { copyText, snippetOf } from '../lib';

/** Copy the token or the embed code of an embed, with the console's toasts (docs/reference/console.md). */
export function useEmbedCopy(vendorId: number, appId: string) {
  const { t } = useTranslation();
  const copy = async (text: Promise<string>, done: string, failed: string) => {
    try {
      await copyText(text);
      notifySuccess(done, SETTINGS_AREA_TOAST);
    } catch (error) {
      console.error(failed, error);
      notifyError(failed, SETTINGS_AREA_TOAST);
    }
  };
  return {
    copyToken: (embedId: number) =>
      copy(
        getEmbedCode(vendorId, appId, embedId).then((code) => code.token),
        t('embeds.toast.tokenCopied'),
        t('embeds.toast.tokenCopyFailed'),
      ),
    /** `known`: the code already loaded (the modal's), else it is fetched. */
    copyCode: (embedId: number, known?: EmbedCode) =>
      copy(
        (known ? Promise.resolve(known) : getEmbedCode(vendorId, appId, embedId)).then(snippetOf),
        t('embeds.toast.codeCopied'),
        t('embeds.toast.codeCopyFailed'),
      ),
  };
}
