import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom lacks the Web Animations and ResizeObserver APIs that Headless UI's transitions and anchoring call.
// (A file may run in the node environment to render as the server does: there is no Element there.)
if (typeof Element !== 'undefined') {
  Element.prototype.getAnimations ??= () => [];
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

afterEach(() => cleanup());
