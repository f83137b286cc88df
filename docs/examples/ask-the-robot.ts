/**
 * Asks the robot of a kefu-im server one question from Node, prints its answer and exits.
 *
 *   npx tsx ask-the-robot.ts http://127.0.0.1:8080 "How do I change my password?"
 */
import { ImClient, MessageType, type StoredMessage } from '@kefu-im/sdk';
import WebSocket from 'ws';

const [baseUrl = 'http://127.0.0.1:8080', question = 'How do I change my password?'] = process.argv.slice(2);

// Every reply of the server's HTTP API is an envelope { code, message, data }:
// code 0 is success; any other code comes with a `message` that says what went wrong.
interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}
const config = (await (await fetch(`${baseUrl}/im/api/public/config`)).json()) as Envelope<{ socketUrl: string; socketKey: string }>;
if (config.code !== 0) throw new Error(`public config refused: ${config.code} ${config.message}`);

const client = new ImClient({
  baseUrl,
  socketUrl: config.data.socketUrl,
  socketKey: config.data.socketKey,
  WebSocket, // Node 20 has no global WebSocket: pass the `ws` package
  language: 'en', // the SDK's own texts (the `notice` events)
  connectData: { role: 'visitor', mchId: 'M1001', platformId: 'P01', language: 'en' }, // the server's texts: welcome, robot
});
client.on('notice', ({ text }) => console.log(`notice: ${text}`));

// `message` tells each chat message once. Our own text is told when the server has confirmed it
// (sendState 'sent'; while it is 'pending' it is only in client.messages). The welcome is a robot
// text too, and it comes first: the answer is the first robot text after our question.
let questionFp: string | undefined;
let asked = false;
const answer = new Promise<StoredMessage>((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('no answer within 15 s')), 15_000);
  client.on('message', ({ message }) => {
    if (message.fp === questionFp) asked = true;
    else if (asked && message.type === MessageType.RobotText && message.robot === 1) {
      clearTimeout(timer);
      resolve(message);
    }
  });
});

await client.start(); // server time, keys, AES switch (failed steps are `error` events and in the result)
client.connect();
questionFp = client.sendText(question).fp; // pending now, sent once the socket is open

try {
  console.log(`robot: ${(await answer).dataContent}`);
} finally {
  client.destroy(); // closes the socket and clears every timer: the script can end
}
