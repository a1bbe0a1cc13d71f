import { LoginForm } from '../../features/auth';
import { SignedOutFrame } from './SignedOutFrame';

export function LoginRoute() {
  return (
    <SignedOutFrame>
      <LoginForm />
    </SignedOutFrame>
  );
}
