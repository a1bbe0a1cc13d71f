import { iconSvgPath } from '@llmor/contracts';
import { Avatar, type MantineSize } from '@mantine/core';
import { initials } from '../lib/format/initials';

export interface EntityIconProps {
  /** An icon reference (`icon:<name>` maps to the bundled svg), an image URL, or nothing. */
  icon?: string | null;
  /** Used for the initials when there is no icon, and as the alt text. */
  name: string;
  size?: MantineSize | number;
}

/** An app's or model's icon, or the initials of its name (docs/reference/console.md: cards show icon or initials). */
export function EntityIcon({ icon, name, size = 'lg' }: EntityIconProps) {
  const src = icon ? (iconSvgPath(icon) ?? icon) : null;
  return (
    <Avatar src={src} alt={name} size={size} radius="md" color="initials" name={name} variant="light">
      {initials(name)}
    </Avatar>
  );
}
