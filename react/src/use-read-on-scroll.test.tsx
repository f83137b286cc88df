// @vitest-environment happy-dom
import type { ChatMessage, IntersectionEntryLike, IntersectionObserverLike } from '@kefu-im/sdk';
import { act, cleanup, render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connect, FakeWebSocket, makeClient, withClient } from './test-utils.js';
import { useMessage } from './use-messages.js';
import { useReadOnScroll } from './use-read-on-scroll.js';

/** A scripted IntersectionObserver: the test says when an element is in view. */
class FakeObserver implements IntersectionObserverLike {
  static all: FakeObserver[] = [];
  readonly targets = new Set<Element>();
  disconnected = false;
  constructor(private readonly callback: (entries: IntersectionEntryLike[], observer: IntersectionObserverLike) => void) {
    FakeObserver.all.push(this);
  }
  observe(target: Element): void {
    this.targets.add(target);
  }
  unobserve(target: Element): void {
    this.targets.delete(target);
  }
  disconnect(): void {
    this.disconnected = true;
    this.targets.clear();
  }
  /** Everything observed scrolls into view. */
  show(): void {
    this.callback([...this.targets].map((target) => ({ isIntersecting: true, target })), this);
  }
}

beforeEach(() => {
  FakeWebSocket.reset();
  FakeObserver.all = [];
});
afterEach(cleanup);

function Row({ fp }: { fp: string }) {
  const message = useMessage(fp);
  const ref = useRef<HTMLDivElement>(null);
  useReadOnScroll(ref, message, { IntersectionObserver: FakeObserver });
  return <div ref={ref}>{message?.dataContent}</div>;
}

const receipts = (ws: FakeWebSocket) => (ws.sentJson() as ChatMessage[]).filter((m) => m.type === 104);

describe('read on scroll: a received message becomes read when it scrolls into view', () => {
  it('sends one receipt when the row comes into view, marks the message read and stops observing', async () => {
    const { client } = makeClient();
    const ws = await connect(client, 'me');
    // Held hidden-time style: in the list, unread, no receipt yet.
    act(() => void client.messages.upsert({ type: 100, fp: 'm1', from: 'agent', to: 'me', dataContent: 'hi', isRead: 0, createTime: 5 }));
    const Wrapper = withClient(client);
    render(
      <Wrapper>
        <Row fp="m1" />
      </Wrapper>,
    );
    // the observing code loads with the first row (it is not in the SDK's start-up)
    await vi.waitFor(() => expect(FakeObserver.all.at(-1)?.targets.size).toBe(1));
    const observer = FakeObserver.all.at(-1) as FakeObserver;
    act(() => observer.show());
    expect(receipts(ws)).toEqual([expect.objectContaining({ dataContent: 'm1', from: 'me', to: 'agent' })]);
    expect(client.messages.get('m1')?.isRead).toBe(1);
    expect(observer.disconnected).toBe(true);
    // The read message re-renders the row; it is not observed again.
    expect(FakeObserver.all.filter((o) => o.targets.size > 0)).toHaveLength(0);
    client.destroy();
  });

  it('never observes our own message nor the robot’s', async () => {
    const { client } = makeClient();
    await connect(client, 'me');
    act(() => {
      client.messages.upsert({ type: 100, fp: 'own', from: 'me', isRead: 0, createTime: 1 });
      client.messages.upsert({ type: 200, fp: 'bot', from: 'robot', robot: 1, isRead: 0, createTime: 2 });
    });
    const Wrapper = withClient(client);
    render(
      <Wrapper>
        <Row fp="own" />
        <Row fp="bot" />
      </Wrapper>,
    );
    expect(FakeObserver.all.filter((o) => o.targets.size > 0)).toHaveLength(0);
    client.destroy();
  });

  it('for a group message, observes only while the user is not in its read list', async () => {
    const { client } = makeClient();
    await connect(client, 'me');
    act(() => {
      client.messages.upsert({ type: 100, fp: 'g1', from: 'x', isGroup: 1, imGroupMsgReadList: [{ clientId: 'me' }], createTime: 1 });
      client.messages.upsert({ type: 100, fp: 'g2', from: 'x', isGroup: 1, imGroupMsgReadList: [{ clientId: 'other' }], createTime: 2 });
    });
    const Wrapper = withClient(client);
    render(
      <Wrapper>
        <Row fp="g1" />
        <Row fp="g2" />
      </Wrapper>,
    );
    expect(FakeObserver.all.filter((o) => o.targets.size > 0)).toHaveLength(1);
    client.destroy();
  });

  it('stops observing when the row unmounts', async () => {
    const { client } = makeClient();
    await connect(client, 'me');
    act(() => void client.messages.upsert({ type: 100, fp: 'm2', from: 'agent', isRead: 0, createTime: 5 }));
    const Wrapper = withClient(client);
    const view = render(
      <Wrapper>
        <Row fp="m2" />
      </Wrapper>,
    );
    const observer = FakeObserver.all.at(-1) as FakeObserver;
    view.unmount();
    expect(observer.disconnected).toBe(true);
    client.destroy();
  });
});
