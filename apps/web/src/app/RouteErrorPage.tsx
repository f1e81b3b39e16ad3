// The router's error element: a page that failed to load or render (including a lazy chunk that
// vanished after a deploy, which "Refresh Page" fixes).
import { useLocation, useNavigate } from 'react-router';
import { ErrorFallback } from '../components/ErrorFallback.tsx';

export function RouteErrorPage() {
  const navigate = useNavigate();
  const location = useLocation();
  // Navigating to the same place resets the router's error state and runs the page again;
  // revalidating alone would not clear an error thrown while rendering.
  return <ErrorFallback onRetry={() => void navigate(location, { replace: true })} />;
}
