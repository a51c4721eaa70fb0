import { useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { signOut } from '../../stores/session.ts';
import { $spaces } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import { useApi } from '../shared/use-api.ts';
import { useSignedIn } from '../shared/use-signed-in.ts';
import { SpaceSwitch } from './SpaceSwitch.tsx';
import { useHere } from './use-here.ts';

// Styles: ConsoleUser.css, imported by the layouts that place the menu (see frame.css).

/** The console's space switcher and user menu; signed-out visitors are sent to sign in and back. */
function ConsoleUser() {
  const { me, error } = useSignedIn();
  const { loaded } = useApi($spaces);
  const here = useHere();
  const [open, setOpen] = useState(false);
  const [signOutError, setSignOutError] = useState<string | null>(null);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menuError = signOutError ?? (loaded.state === 'error' ? errorMessage(loaded.error) : null);
  useEffect(() => {
    if (!open) return;
    const close = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('keydown', close);
    return () => document.removeEventListener('keydown', close);
  }, [open]);

  const leave = async (): Promise<void> => {
    try {
      await signOut();
    } catch (failure) {
      setSignOutError(errorMessage(failure));
    }
  };

  if (error) return <span className="console-user__error">{error}</span>;
  if (!me) return <span className="console-user__loading">Loading…</span>;
  return (
    <div className="console-user">
      {here && <SpaceSwitch here={here} />}
      <div className="console-user__menu">
        <button
          ref={button}
          type="button"
          className="button secondary"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen((value) => !value)}
        >
          <span className="console-user__name">{me.name}</span>
        </button>
        {open && (
          <div id={menuId} className="card console-user__panel">
            <p className="muted wrap-anywhere">{me.email}</p>
            {menuError && <p className="field__error">{menuError}</p>}
            <ul>
              <li>
                <a href="/spaces">All spaces</a>
              </li>
              <li>
                <a href="/profile">Profile</a>
              </li>
              <li>
                <button type="button" className="button secondary" onClick={() => void leave()}>
                  Sign out
                </button>
              </li>
            </ul>
          </div>
        )}
      </div>
    </div>
  );
}

export default withApp(ConsoleUser);
