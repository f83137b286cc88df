import { describe, expect, it } from 'vitest';
import { AgentDesk } from './agent-desk.js';
import { cannedReplyProblem, MAX_CANNED_TEXT, MAX_CANNED_TITLE } from './canned.js';
import { FakeDeskClient } from './test-utils.js';

const input = (shortcut: string, title = `title ${shortcut}`) => ({ mchId: 'M1', title, text: `text ${shortcut}`, shortcut });

describe('DeskCanned', () => {
  it('loads a merchant’s replies into the store by shortcut; add and remove keep it current', async () => {
    const client = new FakeDeskClient();
    client.cannedReplies.push({ ...input('thanks'), id: 'x1', createdAt: 1 }, { ...input('hello'), id: 'x2', createdAt: 1 });
    const desk = new AgentDesk(client);
    expect(desk.canned.replies('M1')).toEqual([]);
    await desk.canned.load('M1');
    expect(desk.canned.store.getState().byMerchant['M1']?.map((r) => r.shortcut)).toEqual(['hello', 'thanks']);
    const added = await desk.canned.add(input('bye'));
    expect(desk.canned.replies('M1').map((r) => r.shortcut)).toEqual(['bye', 'hello', 'thanks']);
    await desk.canned.remove('M1', added.id);
    expect(desk.canned.replies('M1').map((r) => r.shortcut)).toEqual(['hello', 'thanks']);
    expect(client.api.agentCannedRemove).toHaveBeenCalledWith({ mchId: 'M1', id: added.id });
  });

  it('update replaces a reply in the store, kept by shortcut; a refusal leaves the store as it was', async () => {
    const client = new FakeDeskClient();
    const desk = new AgentDesk(client);
    const hello = await desk.canned.add(input('hello'));
    await desk.canned.add(input('thanks'));
    const updated = await desk.canned.update({ ...input('zzz', 'Renamed'), id: hello.id });
    expect(client.api.agentCannedUpdate).toHaveBeenCalledWith({ mchId: 'M1', id: hello.id, title: 'Renamed', text: 'text zzz', shortcut: 'zzz' });
    expect(desk.canned.replies('M1').map((r) => [r.shortcut, r.title])).toEqual([
      ['thanks', 'title thanks'],
      ['zzz', 'Renamed'],
    ]);
    expect(updated.id).toBe(hello.id);
    await expect(desk.canned.update({ ...input('thanks'), id: hello.id })).rejects.toThrow('the shortcut /thanks is taken');
    expect(desk.canned.store.getState().error).toBe('the shortcut /thanks is taken');
    expect(desk.canned.replies('M1').map((r) => r.shortcut)).toEqual(['thanks', 'zzz']);
  });

  it('problem: the server’s rules before asking (blank or long title and text, a bad shortcut, one taken by another reply)', async () => {
    const desk = new AgentDesk(new FakeDeskClient());
    const hello = await desk.canned.add(input('hello'));
    expect(desk.canned.problem(input('/new'))).toBeNull();
    expect(desk.canned.problem({ ...input('new'), title: '  ' })).toBe('title');
    expect(desk.canned.problem({ ...input('new'), title: 'x'.repeat(MAX_CANNED_TITLE + 1) })).toBe('title');
    expect(desk.canned.problem({ ...input('new'), text: '' })).toBe('text');
    expect(desk.canned.problem({ ...input('new'), text: 'x'.repeat(MAX_CANNED_TEXT + 1) })).toBe('text');
    for (const bad of ['', '/', 'two words', 'x'.repeat(33), 'a/b']) expect(desk.canned.problem(input(bad)), bad).toBe('shortcut');
    expect(desk.canned.problem(input('退款_2'))).toBeNull();
    expect(desk.canned.problem(input('/hello'))).toBe('shortcutTaken');
    expect(desk.canned.problem(input('hello'), hello.id)).toBeNull(); // its own shortcut
    expect(cannedReplyProblem(input('hello'))).toBeNull(); // nothing loaded: nothing taken
  });

  it('keeps a refusal’s message in the store and rejects', async () => {
    const desk = new AgentDesk(new FakeDeskClient());
    await desk.canned.add(input('hi'));
    await expect(desk.canned.add(input('hi'))).rejects.toThrow('the shortcut /hi is taken');
    expect(desk.canned.store.getState().error).toBe('the shortcut /hi is taken');
    await desk.canned.load('M1');
    expect(desk.canned.store.getState().error).toBeNull();
  });

  it('suggest: shortcuts starting with the prefix first, then shortcuts or titles containing it, case-insensitive, at most 8', async () => {
    const client = new FakeDeskClient();
    const desk = new AgentDesk(client);
    for (const r of [input('refund'), input('hello', 'Say hi'), input('re-open'), input('where', 'Refund status')]) await desk.canned.add(r);
    expect(desk.canned.suggest('M1', '/re').map((r) => r.shortcut)).toEqual(['re-open', 'refund', 'where']);
    expect(desk.canned.suggest('M1', 'HI').map((r) => r.shortcut)).toEqual(['hello']);
    expect(desk.canned.suggest('M1', '/').map((r) => r.shortcut)).toEqual(['hello', 're-open', 'refund', 'where']);
    expect(desk.canned.suggest('M2', '/')).toEqual([]);
    for (let i = 0; i < 10; i += 1) await desk.canned.add(input(`s${i}`));
    expect(desk.canned.suggest('M1', '/s')).toHaveLength(8);
  });
});
