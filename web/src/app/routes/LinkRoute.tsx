import { useParams } from 'react-router';
import { UnsavedChangesProvider } from '../../components/UnsavedChanges';
import { LinkPage } from '../../features/auth';
import { SignedOutFrame } from './SignedOutFrame';

export function LinkRoute({ purpose }: { purpose: 'invite' | 'reset' }) {
  const { token = '' } = useParams();
  return (
    // Outside the signed-in shell, so the link's form has a guard of its own (docs/adr/0029).
    <UnsavedChangesProvider>
      <SignedOutFrame>
        <LinkPage token={token} purpose={purpose} />
      </SignedOutFrame>
    </UnsavedChangesProvider>
  );
}
