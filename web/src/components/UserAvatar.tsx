import { Avatar, type MantineSize } from '@mantine/core';
import { initials } from '../lib/format/initials';

export interface UserAvatarProps {
  name: string;
  src?: string | null;
  size?: Extract<MantineSize, 'sm' | 'md' | 'lg' | 'xl'>;
}

/** Avatar with initials of the first two words when there is no image (docs/reference/console.md). */
export function UserAvatar({ name, src, size = 'md' }: UserAvatarProps) {
  return (
    <Avatar src={src ?? null} size={size} radius="xl" color="initials" name={name} alt={name}>
      {initials(name)}
    </Avatar>
  );
}
