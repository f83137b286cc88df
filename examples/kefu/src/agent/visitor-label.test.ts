import { describe, expect, it } from 'vitest';
import { visitorLabel } from './desk-texts.js';

const ID = '1a2b3c4d-5e6f-4711-8aaa-0123456789ab';

describe("a visitor's name on the desk", () => {
  it("shows the server's default name (made in the visitor's language) in the desk's language", () => {
    expect(visitorLabel('访客1a2b', ID, 'en')).toBe('Visitor 1a2b');
    expect(visitorLabel('Visitor 1a2b', ID, 'zh')).toBe('访客1a2b');
    expect(visitorLabel('访客1a2b', ID, 'de')).toBe('Besucher 1a2b');
    expect(visitorLabel('Visitor 1a2b', ID, 'zh-Hant')).toBe('訪客1a2b');
    expect(visitorLabel('访客vm-1', 'vm-1234', 'en')).toBe('Visitor vm-1'); // a member's id, the same rule
  });
  it('an empty name becomes the default too', () => {
    expect(visitorLabel('', ID, 'en')).toBe('Visitor 1a2b');
  });
  it("shows any other name as the visitor gave it, a default-looking name of another id included", () => {
    expect(visitorLabel('Alice', ID, 'en')).toBe('Alice');
    expect(visitorLabel('访客9999', ID, 'en')).toBe('访客9999');
    expect(visitorLabel('Visitor 1a2b (VIP)', ID, 'zh')).toBe('Visitor 1a2b (VIP)');
  });
});
