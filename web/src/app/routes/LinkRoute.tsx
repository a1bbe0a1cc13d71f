import { useParams } from 'react-router';
import { LinkPage } from '../../features/auth';

export function LinkRoute({ purpose }: { purpose: 'invite' | 'reset' }) {
  const { token = '' } = useParams();
  return <LinkPage token={token} purpose={purpose} />;
}
