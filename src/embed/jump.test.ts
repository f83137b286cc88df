// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { installJumpFunctions } from './jump.js';

function handlers() {
  return { openChat: vi.fn(), openGroup: vi.fn(), openChannel: vi.fn() };
}

const call = (name: string, ...args: unknown[]): unknown => (Reflect.get(window, name) as (...a: unknown[]) => unknown)(...args);

describe('Global jump functions exist on the window for opening a chat, a group and a channel (spec §2)', () => {
  it('defines kefuJumpChat, kefuJumpGroup and kefuJumpChannel that call the handlers', () => {
    const h = handlers();
    const dispose = installJumpFunctions(window, h);
    call('kefuJumpChat', 'u1');
    call('kefuJumpGroup', 'g1', 'Support');
    call('kefuJumpChannel', 42);
    expect(h.openChat).toHaveBeenCalledWith('u1');
    expect(h.openGroup).toHaveBeenCalledWith('g1', 'Support');
    expect(h.openChannel).toHaveBeenCalledWith('42', undefined);
    dispose();
  });

  it('the disposer deletes them', () => {
    const dispose = installJumpFunctions(window, handlers());
    expect(typeof Reflect.get(window, 'kefuJumpChat')).toBe('function');
    dispose();
    expect('kefuJumpChat' in window).toBe(false);
    expect('kefuJumpGroup' in window).toBe(false);
    expect('kefuJumpChannel' in window).toBe(false);
  });

  it('the disposer restores what was there before and leaves a later replacement alone', () => {
    const before = (): string => 'host function';
    Reflect.set(window, 'openChatFn', before);
    const dispose = installJumpFunctions(window, handlers(), { chat: 'openChatFn', group: 'openGroupFn' });
    const replacement = (): string => 'replacement';
    Reflect.set(window, 'openGroupFn', replacement);
    dispose();
    expect(Reflect.get(window, 'openChatFn')).toBe(before);
    expect(Reflect.get(window, 'openGroupFn')).toBe(replacement);
    expect('kefuJumpChannel' in window).toBe(false);
    Reflect.deleteProperty(window, 'openChatFn');
    Reflect.deleteProperty(window, 'openGroupFn');
  });

  it('a blank id is a clear error and calls nothing', () => {
    const h = handlers();
    const dispose = installJumpFunctions(window, h);
    expect(() => call('kefuJumpChat', ' ')).toThrow(/kefuJumpChat: id must be a non-empty string/);
    expect(() => call('kefuJumpGroup', undefined)).toThrow(TypeError);
    expect(h.openChat).not.toHaveBeenCalled();
    expect(h.openGroup).not.toHaveBeenCalled();
    dispose();
  });

  it('refuses missing handlers and names that are not distinct identifiers', () => {
    expect(() => installJumpFunctions(window, { ...handlers(), openGroup: undefined as unknown as () => void })).toThrow(/handlers.openGroup/);
    expect(() => installJumpFunctions(window, handlers(), { chat: 'same', group: 'same' })).toThrow(/distinct identifiers/);
    expect(() => installJumpFunctions(window, handlers(), { chat: 'not-an-identifier' })).toThrow(/distinct identifiers/);
    expect('kefuJumpChat' in window).toBe(false);
  });
});
