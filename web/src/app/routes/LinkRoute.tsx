import { useParams } from 'react-router';
import { LinkPage } from '../../features/auth';
import { SignedOutFrame } from './SignedOutFrame';

export function LinkRoute({ purpose }: { purpose: 'invite' | 'reset' }) {
  const { token = '' } = useParams();
  return (
    <SignedOutFrame>
      <LinkPage token={token} purpose={purpose} />
    </SignedOutFrame>
  );
}
