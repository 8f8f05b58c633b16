// @vitest-environment jsdom
import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useArrowPosition } from '../../../src/features/ad-detail/hooks/use-arrow-position.ts';

describe('where the ad detail’s arrows stand', () => {
  it('is the ad the last move went to, before any render shows it', () => {
    const { result } = renderHook(({ shown }) => useArrowPosition(shown), { initialProps: { shown: 'a' } });
    expect(result.current.current()).toBe('a');
    result.current.moveTo('b');
    result.current.moveTo('c');
    expect(result.current.current()).toBe('c');
  });

  it('is not moved back by a late render of an ad the arrows have moved past', () => {
    const { result, rerender } = renderHook(({ shown }) => useArrowPosition(shown), { initialProps: { shown: 'a' } });
    result.current.moveTo('b');
    result.current.moveTo('c');
    rerender({ shown: 'b' });
    expect(result.current.current()).toBe('c');
    rerender({ shown: 'c' });
    expect(result.current.current()).toBe('c');
    // Caught up: showing b again now is a move of its own (a similar ad opened, the browser's back).
    rerender({ shown: 'b' });
    expect(result.current.current()).toBe('b');
  });

  it('follows an ad shown by anything but the arrows, even while a move is on its way', () => {
    const { result, rerender } = renderHook(({ shown }) => useArrowPosition(shown), { initialProps: { shown: 'a' } });
    result.current.moveTo('b');
    rerender({ shown: 'x' });
    expect(result.current.current()).toBe('x');
    // The move to b was superseded; a render of b is now a change of its own.
    rerender({ shown: 'b' });
    expect(result.current.current()).toBe('b');
  });
});
