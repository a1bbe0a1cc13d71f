import {
  type ComponentType,
  cloneElement,
  type ReactElement,
  type Ref,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';

/** What a deferred menu module renders: a Mantine `Menu` around `target`, opened at once if asked. */
export interface LoadedMenuProps {
  target: ReactElement<{ ref?: Ref<HTMLElement> }>;
  defaultOpened: boolean;
}

/**
 * A menu button whose menu code (Mantine's Menu, Popover and floating-ui: 36 KB gzip) loads on the first
 * sign of intent — the pointer over it, focus, a touch or a click — instead of with the screen (docs/adr/0017-first-screen-budget.md:
 * the shell's two menus). Until then `target` renders alone, announced as a menu button; a click before
 * the code has arrived opens the menu when it does, and focus stays on the button across the swap.
 */
export function DeferredMenu({
  target,
  load,
}: {
  target: ReactElement<{ ref?: Ref<HTMLElement> }>;
  load: () => Promise<ComponentType<LoadedMenuProps>>;
}) {
  const [LoadedMenu, setLoadedMenu] = useState<ComponentType<LoadedMenuProps> | null>(null);
  const [openOnLoad, setOpenOnLoad] = useState(false);
  const focused = useRef(false);
  const requested = useRef(false);

  const prefetch = useCallback(() => {
    if (requested.current) return;
    requested.current = true;
    load().then(
      (menu) => setLoadedMenu(() => menu),
      (error: unknown) => {
        requested.current = false; // the next intent tries again
        console.error('Could not load the menu', error);
      },
    );
  }, [load]);

  // The button is mounted again inside the menu: give focus back to it if it had it.
  const refocus = useCallback((node: HTMLElement | null) => {
    if (node && focused.current) node.focus();
  }, []);
  useEffect(() => {
    if (LoadedMenu) focused.current = false;
  }, [LoadedMenu]);

  if (LoadedMenu) {
    return <LoadedMenu target={cloneElement(target, { ref: refocus })} defaultOpened={openOnLoad} />;
  }
  // Props any clickable element takes; the target's own type does not list them.
  return cloneElement(target, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: prefetch,
    onFocus: () => {
      focused.current = true;
      prefetch();
    },
    onBlur: () => {
      focused.current = false;
    },
    onClick: () => {
      setOpenOnLoad(true);
      prefetch();
    },
  } as object);
}
