/**
 * The 99 emoji images (spec §3, §9: 25x25), drawn as small inline SVGs so that the app ships no
 * image files and no third-party artwork. Faces are composed from eyes, mouth and extras; objects
 * and gestures have their own drawings. The index of a name in `EMOJI_NAMES` selects the image.
 * @module
 */
import type { ReactElement } from 'react';

type Part = ReactElement;
const INK = '#5a3b16';
const SKIN = '#ffd38a';

/** Face descriptor: eyes, mouth, extras, face colour. */
interface FaceSpec {
  e: number;
  m: number;
  x?: string[];
  c?: string;
}

const FACES: Record<number, FaceSpec> = {
  0: { e: 0, m: 0 }, 1: { e: 0, m: 3 }, 2: { e: 4, m: 6 }, 3: { e: 3, m: 2 }, 4: { e: 6, m: 8 },
  5: { e: 7, m: 3 }, 6: { e: 1, m: 0, x: ['blush'] }, 7: { e: 0, m: 7 }, 8: { e: 2, m: 4, x: ['zzz'] },
  9: { e: 2, m: 10, x: ['streams'] }, 10: { e: 0, m: 5, x: ['sweat'] }, 11: { e: 8, m: 3, c: '#ff8a65' },
  12: { e: 11, m: 6 }, 13: { e: 1, m: 1 }, 14: { e: 3, m: 4 }, 15: { e: 13, m: 3 }, 16: { e: 6, m: 0 },
  17: { e: 13, m: 2, x: ['sweat'] }, 18: { e: 5, m: 10, x: ['anger'] }, 19: { e: 2, m: 10, c: '#b5d98a' },
  20: { e: 11, m: 1 }, 21: { e: 1, m: 1, x: ['blush'] }, 22: { e: 9, m: 2 }, 23: { e: 10, m: 8 },
  24: { e: 0, m: 4, x: ['drool'] }, 25: { e: 10, m: 4 }, 26: { e: 3, m: 10, c: '#b3d4ff' }, 27: { e: 0, m: 0, x: ['sweat'] },
  28: { e: 2, m: 1 }, 29: { e: 10, m: 0 }, 30: { e: 8, m: 11, x: ['sweat'] }, 31: { e: 8, m: 11, x: ['curse'] },
  32: { e: 0, m: 2, x: ['question'] }, 33: { e: 0, m: 9, x: ['finger'] }, 34: { e: 12, m: 4 },
  35: { e: 12, m: 5, x: ['anger'] }, 36: { e: 13, m: 5, c: '#d9cfb8', x: ['gloom'] }, 38: { e: 5, m: 3, x: ['bump'] },
  39: { e: 1, m: 0, x: ['wave'] }, 40: { e: 1, m: 2, x: ['sweat', 'wave'] }, 41: { e: 10, m: 2, x: ['finger'] },
  42: { e: 1, m: 1, x: ['sparkle'] }, 43: { e: 2, m: 5, x: ['blush', 'sweat'] }, 44: { e: 8, m: 8 },
  45: { e: 8, m: 2, x: ['puffL'] }, 46: { e: 8, m: 2, x: ['puffR'] }, 47: { e: 2, m: 10, x: ['tear'] },
  48: { e: 9, m: 8 }, 49: { e: 7, m: 5 }, 50: { e: 7, m: 2 }, 51: { e: 10, m: 8, c: '#e8c170', x: ['gloom'] },
  52: { e: 11, m: 9, x: ['heart'] }, 53: { e: 3, m: 4, x: ['sweat'] }, 54: { e: 3, m: 5, x: ['shine'] },
  78: { e: 1, m: 0, x: ['arms'] }, 91: { e: 11, m: 9, x: ['heart', 'blush'] }, 92: { e: 1, m: 1, x: ['motion'] },
  93: { e: 3, m: 5, c: '#b3d4ff', x: ['shake'] }, 94: { e: 8, m: 11, c: '#ff8a65', x: ['steam'] },
  95: { e: 12, m: 0, x: ['spin'] }, 96: { e: 2, m: 2, x: ['bump'] }, 97: { e: 11, m: 8, x: ['motion'] },
  98: { e: 1, m: 0, x: ['rope'] },
};

const OBJECTS: Record<number, string> = {
  37: 'skull', 55: 'cleaver', 56: 'melon', 57: 'beer', 58: 'basketball', 59: 'paddle', 60: 'coffee', 61: 'rice',
  62: 'pig', 63: 'rose', 64: 'wilt', 65: 'lips', 66: 'heart', 67: 'broken', 68: 'cake', 69: 'bolt', 70: 'bomb',
  71: 'dagger', 72: 'soccer', 73: 'bug', 74: 'poop', 75: 'moon', 76: 'sun', 77: 'gift', 79: 'up', 80: 'down',
  81: 'shake', 82: 'victory', 83: 'salute', 84: 'beckon', 85: 'fist', 86: 'pinky', 87: 'loveHand', 88: 'no',
  89: 'ok', 90: 'hearts',
};

const stroke = { stroke: INK, strokeWidth: 1.3, fill: 'none', strokeLinecap: 'round' as const, strokeLinejoin: 'round' as const };
const heartPath = (x: number, y: number, s: number): string =>
  `M${x} ${y + s * 0.9}C${x - s * 1.6} ${y - s * 0.1} ${x - s * 0.7} ${y - s * 1.2} ${x} ${y - s * 0.35}C${x + s * 0.7} ${y - s * 1.2} ${x + s * 1.6} ${y - s * 0.1} ${x} ${y + s * 0.9}Z`;

function eyes(kind: number): Part[] {
  const both = (f: (x: number, k: string) => Part): Part[] => [f(8.5, 'l'), f(15.5, 'r')];
  switch (kind) {
    case 1: return both((x, k) => <path key={k} d={`M${x - 2} 10.5Q${x} 7.8 ${x + 2} 10.5`} {...stroke} />);
    case 2: return both((x, k) => <path key={k} d={`M${x - 2} 10h4`} {...stroke} />);
    case 3: return both((x, k) => <g key={k}><circle cx={x} cy={10} r={2.5} fill="#fff" stroke={INK} strokeWidth={0.8} /><circle cx={x} cy={10.3} r={1.2} fill={INK} /></g>);
    case 4: return both((x, k) => <path key={k} d={heartPath(x, 10, 2)} fill="#e53950" />);
    case 5: return both((x, k) => <path key={k} d={`M${x - 1.7} 8.3l3.4 3.4M${x + 1.7} 8.3l-3.4 3.4`} {...stroke} />);
    case 6: return [<path key="g" d="M4.5 8.5h15v1.5a2.8 2.8 0 0 1-2.8 2.8h-2.4a2.8 2.8 0 0 1-2.3-1.4 2.8 2.8 0 0 1-2.3 1.4H7.3a2.8 2.8 0 0 1-2.8-2.8z" fill="#2b2b2b" />];
    case 7: return both((x, k) => <g key={k}><circle cx={x} cy={10} r={1.5} fill={INK} /><path d={`M${x} 12.2q-1 1.6 0 2.4q1-.8 0-2.4z`} fill="#5aa9ff" /></g>);
    case 8: return both((x, k) => <g key={k}><circle cx={x} cy={10.5} r={1.4} fill={INK} /><path d={x < 12 ? `M${x - 2} 7.2l3.5 1.4` : `M${x + 2} 7.2l-3.5 1.4`} {...stroke} /></g>);
    case 9: return both((x, k) => <g key={k}><circle cx={x} cy={10} r={2.3} fill="#fff" stroke={INK} strokeWidth={0.8} /><circle cx={x} cy={8.6} r={1} fill={INK} /></g>);
    case 10: return both((x, k) => <path key={k} d={`M${x - 2} 9.5h4M${x - 1.4} 9.5q1.4 1.6 2.8 0`} {...stroke} />);
    case 11: return [<circle key="l" cx={8.5} cy={10} r={1.5} fill={INK} />, <path key="r" d="M13.5 10.5Q15.5 7.8 17.5 10.5" {...stroke} />];
    case 12: return both((x, k) => <g key={k} fill="none" stroke={INK} strokeWidth={0.9}><circle cx={x} cy={10} r={2.3} /><circle cx={x + 0.4} cy={10} r={1.1} /></g>);
    case 13: return both((x, k) => <g key={k}><circle cx={x} cy={10.5} r={1.4} fill={INK} /><path d={x < 12 ? `M${x - 2} 8.4l3.5-1.2` : `M${x + 2} 8.4l-3.5-1.2`} {...stroke} /></g>);
    default: return both((x, k) => <circle key={k} cx={x} cy={10} r={1.5} fill={INK} />);
  }
}

function mouth(kind: number): Part {
  switch (kind) {
    case 1: return <path d="M7 14h10a5 5 0 0 1-10 0z" fill={INK} stroke={INK} strokeWidth={0.6} strokeLinejoin="round" />;
    case 2: return <path d="M9 16h6" {...stroke} />;
    case 3: return <path d="M8.5 17.5Q12 14.5 15.5 17.5" {...stroke} />;
    case 4: return <ellipse cx={12} cy={16.2} rx={1.8} ry={2} fill={INK} />;
    case 5: return <path d="M8 16.3q1-1 2 0t2 0 2 0 2 0" {...stroke} />;
    case 6: return <g><path d="M8 14.8Q12 18.6 16 14.8" {...stroke} /><path d="M11 16.3h3v1.6a1.5 1.5 0 0 1-3 0z" fill="#ff6f8a" /></g>;
    case 7: return <path d="M8 16h8M9.5 15v2M11.5 15v2M13.5 15v2" {...stroke} strokeWidth={1} />;
    case 8: return <path d="M9 16.2Q13 17.4 15.5 14.6" {...stroke} />;
    case 9: return <path d="M11.5 14.5q2 .8 0 1.6q2 .8 0 1.6" {...stroke} />;
    case 10: return <ellipse cx={12} cy={16.4} rx={3.4} ry={2.6} fill={INK} />;
    case 11: return <g><rect x={8} y={14.5} width={8} height={3.4} rx={1} fill="#fff" stroke={INK} strokeWidth={0.9} /><path d="M8 16.2h8M10.7 14.5v3.4M13.3 14.5v3.4" stroke={INK} strokeWidth={0.6} /></g>;
    default: return <path d="M8 14.5Q12 18.5 16 14.5" {...stroke} />;
  }
}

function extra(name: string): Part | null {
  switch (name) {
    case 'blush': return <g key={name} fill="#ff8fa3" opacity={0.7}><ellipse cx={6} cy={13.5} rx={1.8} ry={1.1} /><ellipse cx={18} cy={13.5} rx={1.8} ry={1.1} /></g>;
    case 'sweat': return <path key={name} d="M19 3.5q-2 3 0 4.2q2-1.2 0-4.2z" fill="#5aa9ff" />;
    case 'tear': return <path key={name} d="M17.5 11.5q-1.2 2 0 2.8q1.2-.8 0-2.8z" fill="#5aa9ff" />;
    case 'streams': return <g key={name} fill="#5aa9ff"><rect x={6.7} y={11} width={2.2} height={8} rx={1} /><rect x={15.1} y={11} width={2.2} height={8} rx={1} /></g>;
    case 'anger': return <path key={name} d="M17 2.5l1.2 1.8 1.8-1.2-.6 2.2 2.2.6-2 1" stroke="#e53935" strokeWidth={1.2} fill="none" strokeLinecap="round" />;
    case 'zzz': return <text key={name} x={16} y={6} fontSize={5.5} fontWeight={700} fill="#5a7bd6" fontFamily="sans-serif">z</text>;
    case 'question': return <text key={name} x={17} y={7} fontSize={7} fontWeight={700} fill="#e53935" fontFamily="sans-serif">?</text>;
    case 'curse': return <text key={name} x={4} y={6.5} fontSize={5} fontWeight={700} fill="#e53935" fontFamily="sans-serif">#@!</text>;
    case 'finger': return <rect key={name} x={11} y={12} width={2.2} height={8} rx={1.1} fill={SKIN} stroke={INK} strokeWidth={0.6} />;
    case 'drool': return <path key={name} d="M14.5 17.5q-.8 2 0 3q.8-1 0-3z" fill="#5aa9ff" />;
    case 'gloom': return <path key={name} d="M7 2.8v3M10 2.3v3M14 2.3v3M17 2.8v3" stroke="#6a5acd" strokeWidth={1} />;
    case 'bump': return <circle key={name} cx={17.5} cy={4.5} r={2.4} fill="#ff7043" stroke={INK} strokeWidth={0.5} />;
    case 'wave': return <g key={name}><circle cx={20.3} cy={17.5} r={2.6} fill={SKIN} stroke={INK} strokeWidth={0.6} /><path d="M22.5 13.8l1 -1M21 13l.3-1.3" stroke={INK} strokeWidth={0.7} /></g>;
    case 'sparkle': return <path key={name} d="M20 2.5l.7 1.8 1.8.7-1.8.7-.7 1.8-.7-1.8-1.8-.7 1.8-.7z" fill="#ffb300" />;
    case 'puffL': return <g key={name} fill="#cfd8dc"><circle cx={2.6} cy={15} r={1.6} /><circle cx={1.4} cy={12.5} r={1} /></g>;
    case 'puffR': return <g key={name} fill="#cfd8dc"><circle cx={21.4} cy={15} r={1.6} /><circle cx={22.6} cy={12.5} r={1} /></g>;
    case 'heart': return <path key={name} d={heartPath(19.5, 5, 2.3)} fill="#e53950" />;
    case 'shine': return <g key={name} fill="#fff"><circle cx={9.2} cy={9.2} r={0.7} /><circle cx={16.2} cy={9.2} r={0.7} /></g>;
    case 'arms': return <g key={name} fill={SKIN} stroke={INK} strokeWidth={0.6}><ellipse cx={3} cy={17} rx={2.4} ry={1.8} /><ellipse cx={21} cy={17} rx={2.4} ry={1.8} /></g>;
    case 'motion': return <path key={name} d="M1.5 8h2.5M1 12h2.5M1.5 16h2.5" stroke="#90a4ae" strokeWidth={1} strokeLinecap="round" />;
    case 'shake': return <path key={name} d="M1 7q1 1 0 2t0 2M23 7q-1 1 0 2t0 2" stroke="#90a4ae" strokeWidth={0.9} fill="none" />;
    case 'steam': return <path key={name} d="M5 3q1-1 0-2M12 2.3q1-1 0-2M19 3q1-1 0-2" stroke="#90a4ae" strokeWidth={1} fill="none" />;
    case 'spin': return <path key={name} d="M3 6a10 10 0 0 1 5-3.6M21 18a10 10 0 0 1-5 3.6" stroke="#42a5f5" strokeWidth={1.2} fill="none" strokeLinecap="round" />;
    case 'rope': return <path key={name} d="M2 14Q12 27 22 14" stroke="#8d6e63" strokeWidth={1.1} fill="none" />;
    default: return null;
  }
}

function face(spec: FaceSpec): Part[] {
  return [
    <circle key="f" cx={12} cy={12} r={10.5} fill={spec.c ?? '#ffcc4d'} stroke="#e0a526" strokeWidth={0.8} />,
    ...eyes(spec.e),
    <g key="m">{mouth(spec.m)}</g>,
    ...(spec.x ?? []).map(extra).filter((p): p is Part => p !== null),
  ];
}

const fist = (x: number, y: number, fill = SKIN): Part => (
  <g key={`fist${x}${y}`}>
    <rect x={x} y={y} width={11} height={9} rx={3} fill={fill} stroke={INK} strokeWidth={0.8} />
    <path d={`M${x + 3.5} ${y + 1}v3.5M${x + 6.5} ${y + 1}v3.5`} stroke={INK} strokeWidth={0.6} />
  </g>
);

function object(kind: string): Part[] {
  switch (kind) {
    case 'skull': return [<path key="s" d="M12 2.5a8 8 0 0 0-8 8c0 3 1.6 5 3.5 6v3.5h9V16.5c1.9-1 3.5-3 3.5-6a8 8 0 0 0-8-8z" fill="#f5f5f5" stroke="#9e9e9e" />, <circle key="a" cx={8.8} cy={11} r={2} fill="#424242" />, <circle key="b" cx={15.2} cy={11} r={2} fill="#424242" />, <path key="n" d="M12 13.5l-1 2h2z" fill="#424242" />];
    case 'cleaver': return [<path key="b" d="M3 5h13v8H6a3 3 0 0 1-3-3z" fill="#cfd8dc" stroke="#78909c" />, <rect key="h" x={15} y={7.5} width={7} height={3} rx={1.2} fill="#8d6e63" />];
    case 'melon': return [<path key="r" d="M2 9h20a10 10 0 0 1-20 0z" fill="#43a047" />, <path key="f" d="M3.6 9h16.8a8.4 8.4 0 0 1-16.8 0z" fill="#ef5350" />, <g key="s" fill="#212121"><circle cx={8} cy={12} r={0.8} /><circle cx={12} cy={14} r={0.8} /><circle cx={16} cy={12} r={0.8} /></g>];
    case 'beer': return [<rect key="g" x={5} y={6} width={11} height={15} rx={1.5} fill="#ffb300" stroke="#8d6e63" />, <path key="f" d="M4.5 7a3 3 0 0 1 3-3.5 3 3 0 0 1 5 0 3 3 0 0 1 4 3.5z" fill="#fff" stroke="#bdbdbd" strokeWidth={0.6} />, <path key="h" d="M16 9h2.5a2 2 0 0 1 2 2v4a2 2 0 0 1-2 2H16" fill="none" stroke="#8d6e63" strokeWidth={1.4} />];
    case 'basketball': return [<circle key="b" cx={12} cy={12} r={10} fill="#ff8f00" stroke="#6d4c41" />, <path key="l" d="M2 12h20M12 2v20M5 5q5 7 0 14M19 5q-5 7 0 14" stroke="#6d4c41" strokeWidth={0.9} fill="none" />];
    case 'paddle': return [<circle key="p" cx={10} cy={10} r={7.5} fill="#e53935" stroke="#8e2420" />, <rect key="h" x={14} y={15} width={3.2} height={8} rx={1.4} transform="rotate(-45 15.6 19)" fill="#8d6e63" />, <circle key="b" cx={19.5} cy={5} r={2.2} fill="#fff" stroke="#bdbdbd" />];
    case 'coffee': return [<path key="c" d="M4 9h13v6a6 6 0 0 1-6 6h-1a6 6 0 0 1-6-6z" fill="#fff" stroke="#6d4c41" />, <path key="h" d="M17 11h1.5a2.5 2.5 0 0 1 0 5H16" fill="none" stroke="#6d4c41" strokeWidth={1.3} />, <path key="s" d="M8 3q1.5 1.5 0 3M12 3q1.5 1.5 0 3" stroke="#a1887f" fill="none" />, <rect key="k" x={5} y={9.5} width={11} height={2.2} fill="#6d4c41" />];
    case 'rice': return [<path key="r" d="M4 11a8 5 0 0 1 16 0z" fill="#fff" stroke="#bdbdbd" />, <path key="b" d="M2.5 11h19a9.5 9.5 0 0 1-19 0z" fill="#42a5f5" stroke="#1e6bb8" />, <path key="c" d="M15 2l4 8M18 2l2 8" stroke="#8d6e63" strokeWidth={1.1} />];
    case 'pig': return [<circle key="h" cx={12} cy={12.5} r={9.5} fill="#f8a5c2" stroke="#c2185b" strokeWidth={0.8} />, <path key="e" d="M4 6l2-4 3 3M20 6l-2-4-3 3" fill="#f8a5c2" stroke="#c2185b" strokeWidth={0.8} />, <ellipse key="n" cx={12} cy={15} rx={4} ry={2.8} fill="#f06292" />, <circle key="a" cx={10.5} cy={15} r={0.8} fill="#6d1b3b" />, <circle key="b" cx={13.5} cy={15} r={0.8} fill="#6d1b3b" />, <circle key="c" cx={8.5} cy={10} r={1.1} fill="#3e2723" />, <circle key="d" cx={15.5} cy={10} r={1.1} fill="#3e2723" />];
    case 'rose': return [<path key="s" d="M12 12v10M12 17q-4-1-5-4M12 19q3-1 4-4" stroke="#43a047" strokeWidth={1.4} fill="none" />, <path key="f" d="M7 6a5 5 0 0 0 10 0q0 6-5 6.5Q7 12 7 6z" fill="#e53935" />, <path key="t" d="M7 6l2.5-3 2.5 2 2.5-2L17 6" fill="#c62828" />];
    case 'wilt': return [<path key="s" d="M12 22v-9q0-4-5-5" stroke="#8d6e63" strokeWidth={1.4} fill="none" />, <path key="f" d="M3 9a4 4 0 0 1 7 2q-3 2-7-2z" fill="#8d6e63" />, <path key="p" d="M15 20q2-1 3 0M17 16q2 0 2 2" stroke="#a1887f" fill="none" />];
    case 'lips': return [<path key="u" d="M2.5 12q4-6 9.5-3.5Q17.5 6 21.5 12z" fill="#e53950" />, <path key="d" d="M2.5 12q9.5 9 19 0z" fill="#c2185b" />];
    case 'heart': return [<path key="h" d={heartPath(12, 11, 6.4)} fill="#e53950" />];
    case 'broken': return [<path key="h" d={heartPath(12, 11, 6.4)} fill="#e53950" />, <path key="c" d="M12 6.5l-2 4 3 2-2 4 1 3.4" stroke="#fff" strokeWidth={1.4} fill="none" />];
    case 'cake': return [<rect key="b" x={3} y={12} width={18} height={9} rx={1.5} fill="#f8bbd0" stroke="#ad1457" strokeWidth={0.7} />, <path key="i" d="M3 14.5q3 2 6 0t6 0 6 0" stroke="#fff" strokeWidth={1.3} fill="none" />, <rect key="c" x={11} y={6} width={2} height={6} fill="#42a5f5" />, <path key="f" d="M12 2q-2 2 0 3.5q2-1.5 0-3.5z" fill="#ffb300" />];
    case 'bolt': return [<path key="b" d="M13.5 1.5L5 13.5h6l-1.5 9 9-12.5h-6z" fill="#ffca28" stroke="#f57f17" strokeWidth={0.8} strokeLinejoin="round" />];
    case 'bomb': return [<circle key="b" cx={10.5} cy={14} r={7.5} fill="#37474f" />, <rect key="c" x={13.5} y={5} width={4} height={3.5} transform="rotate(40 15.5 6.7)" fill="#546e7a" />, <path key="f" d="M17 4q2-3 4-1" stroke="#8d6e63" fill="none" />, <path key="s" d="M21 1.5l.6 1.4 1.4.6-1.4.6-.6 1.4-.6-1.4-1.4-.6 1.4-.6z" fill="#ffb300" />, <circle key="g" cx={7.5} cy={11} r={1.6} fill="#78909c" />];
    case 'dagger': return [<path key="b" d="M12 1.5l2 4v9h-4v-9z" fill="#cfd8dc" stroke="#78909c" strokeWidth={0.7} />, <rect key="g" x={7} y={14.5} width={10} height={2} rx={1} fill="#ffb300" />, <rect key="h" x={10.8} y={16.5} width={2.4} height={6} rx={1} fill="#6d4c41" />];
    case 'soccer': return [<circle key="b" cx={12} cy={12} r={10} fill="#fff" stroke="#424242" />, <path key="p" d="M12 7.5l4 3-1.5 4.5h-5L8 10.5z" fill="#212121" />, <path key="l" d="M12 7.5V2.2M16 10.5l5-1.6M14.5 15l3 4.3M9.5 15l-3 4.3M8 10.5l-5-1.6" stroke="#424242" strokeWidth={0.8} />];
    case 'bug': return [<path key="l" d="M6 9L3 7M18 9l3-2M5 14H2M19 14h3M6 18.5l-2.5 2M18 18.5l2.5 2" stroke="#212121" strokeWidth={1} />, <circle key="h" cx={12} cy={6} r={3} fill="#212121" />, <ellipse key="b" cx={12} cy={14} rx={7} ry={7.5} fill="#e53935" />, <path key="m" d="M12 6.5v15" stroke="#212121" strokeWidth={1} />, <g key="d" fill="#212121"><circle cx={9} cy={11.5} r={1.3} /><circle cx={15} cy={11.5} r={1.3} /><circle cx={9} cy={16.5} r={1.3} /><circle cx={15} cy={16.5} r={1.3} /></g>];
    case 'poop': return [<path key="p" d="M4 20.5h16a3 3 0 0 0-1-5.5 3 3 0 0 0-2-4.5 3 3 0 0 0-3-4 2 2 0 0 0-2-3.5c0 2-2 2.5-3 3.5a3 3 0 0 0-2 4 3 3 0 0 0-2 4.5 3 3 0 0 0-1 5.5z" fill="#8d6e63" stroke="#5d4037" strokeWidth={0.7} />, <circle key="a" cx={9.5} cy={14} r={1.2} fill="#fff" />, <circle key="b" cx={14.5} cy={14} r={1.2} fill="#fff" />];
    case 'moon': return [<path key="m" d="M15 2.5a9.5 9.5 0 1 0 6.5 15A8 8 0 0 1 15 2.5z" fill="#ffd54f" stroke="#f9a825" strokeWidth={0.7} />];
    case 'sun': return [<circle key="s" cx={12} cy={12} r={5.5} fill="#ffb300" />, <path key="r" d="M12 1.5v3M12 19.5v3M1.5 12h3M19.5 12h3M4.6 4.6l2.1 2.1M17.3 17.3l2.1 2.1M4.6 19.4l2.1-2.1M17.3 6.7l2.1-2.1" stroke="#ff8f00" strokeWidth={1.6} strokeLinecap="round" />];
    case 'gift': return [<rect key="b" x={3.5} y={10} width={17} height={11} rx={1} fill="#e53935" />, <rect key="l" x={2.5} y={7} width={19} height={4} rx={1} fill="#ef5350" />, <rect key="r" x={10.8} y={7} width={2.4} height={14} fill="#ffca28" />, <path key="k" d="M12 7q-5-5-6-1.5T12 7q5-5 6-1.5T12 7" fill="none" stroke="#ffca28" strokeWidth={1.3} />];
    case 'up': return [fist(7, 11), <rect key="t" x={6.5} y={3} width={4.5} height={10} rx={2.2} fill={SKIN} stroke={INK} strokeWidth={0.8} />];
    case 'down': return [<g key="d" transform="rotate(180 12 12)">{fist(7, 11)}<rect x={6.5} y={3} width={4.5} height={10} rx={2.2} fill={SKIN} stroke={INK} strokeWidth={0.8} /></g>];
    case 'shake': return [fist(2, 8), fist(11, 8, '#f6b26b'), <path key="m" d="M1 20h22" stroke="#90a4ae" strokeWidth={0.8} />];
    case 'victory': return [<rect key="a" x={7} y={2} width={3.5} height={11} rx={1.7} transform="rotate(-12 8.7 7.5)" fill={SKIN} stroke={INK} strokeWidth={0.8} />, <rect key="b" x={13} y={2} width={3.5} height={11} rx={1.7} transform="rotate(12 14.7 7.5)" fill={SKIN} stroke={INK} strokeWidth={0.8} />, fist(6.5, 12)];
    case 'salute': return [fist(4, 9), <rect key="p" x={11} y={6} width={9} height={13} rx={3} fill="#f6c48f" stroke={INK} strokeWidth={0.8} />];
    case 'beckon': return [fist(6, 11), <path key="f" d="M14.5 11.5V6a2 2 0 0 1 4 0v1.5" fill="none" stroke={INK} strokeWidth={1.2} strokeLinecap="round" />];
    case 'fist': return [fist(6.5, 7.5), <rect key="w" x={9} y={16.5} width={6} height={5} fill={SKIN} stroke={INK} strokeWidth={0.8} />];
    case 'pinky': return [fist(5, 10), <rect key="p" x={14} y={4} width={2.6} height={8} rx={1.3} fill={SKIN} stroke={INK} strokeWidth={0.8} />];
    case 'loveHand': return [fist(3, 11), <path key="h" d={heartPath(17, 7, 3.6)} fill="#e53950" />];
    case 'no': return [<circle key="c" cx={12} cy={12} r={10.5} fill="#e53935" />, <text key="t" x={12} y={15.6} textAnchor="middle" fontSize={10} fontWeight={700} fill="#fff" fontFamily="sans-serif">NO</text>];
    case 'ok': return [<circle key="c" cx={12} cy={12} r={10.5} fill="#43a047" />, <text key="t" x={12} y={15.6} textAnchor="middle" fontSize={10} fontWeight={700} fill="#fff" fontFamily="sans-serif">OK</text>];
    case 'hearts': return [<path key="a" d={heartPath(9, 10, 5)} fill="#e53950" />, <path key="b" d={heartPath(16, 14, 4.2)} fill="#f06292" />];
    default: return face({ e: 0, m: 0 });
  }
}

/**
 * The drawing of emoji `index` (0-98): SVG elements in a 24x24 view box.
 * @param index - the index of the emoji name in `EMOJI_NAMES`
 */
export function emojiParts(index: number): Part[] {
  const objectKind = OBJECTS[index];
  if (objectKind !== undefined) return object(objectKind);
  return face(FACES[index] ?? { e: index % 14, m: Math.floor(index / 14) % 12 });
}
