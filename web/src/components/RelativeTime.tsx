import { Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/format/date';
import { formatRelativeTime } from '../lib/format/relativeTime';

/** 'just now' / 'Nm ago' / 'Nh ago' / short date, with the full date and time on hover. */
export function RelativeTime({ value }: { value: string | number | Date }) {
  const { t, i18n } = useTranslation();
  return (
    <Tooltip label={formatDateTime(value, i18n.language)} openDelay={200}>
      <time dateTime={new Date(value).toISOString()}>
        {formatRelativeTime(value, i18n.language, (key, options) => t(key, options))}
      </time>
    </Tooltip>
  );
}
