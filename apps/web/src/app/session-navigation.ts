// Lets the session (401 handler, refresh timer, logout) move through the app's router rather than
// reloading the page. Connected from inside the router (AppRoutes), where its navigate function
// lives; the location it reports is the one on screen.
import { useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { setSessionNavigator } from '../auth/navigation.ts';

export function useSessionNavigation(): void {
  const navigate = useNavigate();
  const location = useLocation();
  const shown = useRef(location);

  useLayoutEffect(() => {
    shown.current = location;
  }, [location]);

  useLayoutEffect(() => {
    setSessionNavigator(
      (to, { replace, state }) => void navigate(to, { replace: replace ?? false, state }),
      () => shown.current,
    );
  }, [navigate]);
}
