import { Center, Loader } from '@mantine/core';

/** What a page shows while its chunk loads. */
export function PageLoader() {
  return (
    <Center py="xl" data-testid="page-loading">
      <Loader size="sm" />
    </Center>
  );
}
