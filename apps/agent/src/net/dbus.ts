// The smallest D-Bus client the agent needs: method calls on a private bus over its UNIX socket
// (nfs-ganesha's admin and statistics interfaces, nfs/ganesha-dbus.ts). No library: `dbus-next`
// (the pure-JS one) brings seven dependencies (xml2js, event-stream, jsbi, long…) for
// introspection, signals and exported objects the agent never uses, and its last release is
// years old; spawning `dbus-send` on every report pass is what the pass must not do.
//
// One conversation per `withDbus`: connect, authenticate (EXTERNAL: the kernel tells the bus our
// uid), `Hello`, the caller's calls one after another, close. Everything has a deadline: a hung bus
// fails the call, it never hangs a reconcile pass. Little-endian messages only (we write them so,
// and a bus answers in the endianness it was asked in).
import { createConnection, type Socket } from 'node:net';

export class DbusError extends Error {
  constructor(
    /** `org.freedesktop.DBus.Error.UnknownMethod`, or `timeout`, `io`, `protocol` of our own. */
    override readonly name: string,
    message: string,
  ) {
    super(message);
  }
}

/** A value read from a message: numbers (64-bit ones as bigint), strings, arrays, structs. */
export type DbusValue = number | bigint | boolean | string | DbusValue[];

export interface DbusCall {
  destination: string;
  path: string;
  interface: string;
  member: string;
  /** The arguments' types: `s` (string), `q` (uint16), `u` (uint32) are all that is written. */
  signature?: string;
  args?: Array<string | number>;
}

export interface DbusBus {
  /** The reply's values, in order; a D-Bus error reply throws a DbusError with its name. */
  call(call: DbusCall): Promise<DbusValue[]>;
}

const METHOD_CALL = 1;
const METHOD_RETURN = 2;
const ERROR = 3;
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

// ---- writing -------------------------------------------------------------------------------

class Writer {
  private chunks: Buffer[] = [];
  length = 0;
  private push(buffer: Buffer) {
    this.chunks.push(buffer);
    this.length += buffer.length;
  }
  align(to: number) {
    const pad = (to - (this.length % to)) % to;
    if (pad) this.push(Buffer.alloc(pad));
  }
  byte(value: number) {
    this.push(Buffer.from([value]));
  }
  uint16(value: number) {
    this.align(2);
    const buffer = Buffer.alloc(2);
    buffer.writeUInt16LE(value);
    this.push(buffer);
  }
  uint32(value: number) {
    this.align(4);
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32LE(value);
    this.push(buffer);
  }
  string(value: string) {
    const bytes = Buffer.from(value, 'utf8');
    this.uint32(bytes.length);
    this.push(Buffer.concat([bytes, Buffer.alloc(1)]));
  }
  signature(value: string) {
    this.byte(value.length);
    this.push(Buffer.from(`${value}\0`, 'ascii'));
  }
  bytes() {
    return Buffer.concat(this.chunks);
  }
}

function writeBasic(writer: Writer, type: string, value: string | number) {
  switch (type) {
    case 's':
    case 'o':
      return writer.string(String(value));
    case 'g':
      return writer.signature(String(value));
    case 'q':
      return writer.uint16(Number(value));
    case 'u':
      return writer.uint32(Number(value));
    default:
      throw new DbusError('protocol', `cannot write an argument of type ${type}`);
  }
}

/** A method call message, little-endian. */
export function encodeCall(call: DbusCall, serial: number): Buffer {
  const signature = call.signature ?? '';
  const args = call.args ?? [];
  if (signature.length !== args.length) throw new DbusError('protocol', 'one argument per type');
  const body = new Writer();
  [...signature].forEach((type, index) => writeBasic(body, type, args[index]!));
  const fields: Array<[number, string, string | number]> = [
    [1, 'o', call.path],
    [2, 's', call.interface],
    [3, 's', call.member],
    [6, 's', call.destination],
  ];
  if (signature) fields.push([8, 'g', signature]);
  const header = new Writer();
  header.byte('l'.charCodeAt(0));
  header.byte(METHOD_CALL);
  header.byte(0);
  header.byte(1);
  header.uint32(body.length);
  header.uint32(serial);
  const fieldBytes = new Writer();
  for (const [code, type, value] of fields) {
    fieldBytes.align(8);
    fieldBytes.byte(code);
    fieldBytes.signature(type);
    writeBasic(fieldBytes, type, value);
  }
  // The fields array starts at offset 16, 8-aligned: their alignment inside it is the message's.
  header.uint32(fieldBytes.length);
  const head = Buffer.concat([header.bytes(), fieldBytes.bytes()]);
  const pad = Buffer.alloc((8 - (head.length % 8)) % 8);
  return Buffer.concat([head, pad, body.bytes()]);
}

// ---- reading -------------------------------------------------------------------------------

/** Splits a signature into its complete types (`a(st)u` → `a(st)`, `u`). */
export function splitSignature(signature: string): string[] {
  const types: string[] = [];
  let at = 0;
  while (at < signature.length) {
    const end = typeEnd(signature, at);
    types.push(signature.slice(at, end));
    at = end;
  }
  return types;
}

function typeEnd(signature: string, at: number): number {
  const char = signature[at];
  if (char === undefined) throw new DbusError('protocol', `bad signature ${signature}`);
  if (char === 'a') return typeEnd(signature, at + 1);
  if (char === '(' || char === '{') {
    const close = char === '(' ? ')' : '}';
    let next = at + 1;
    while (signature[next] !== close) next = typeEnd(signature, next);
    return next + 1;
  }
  return at + 1;
}

const ALIGN: Record<string, number> = {
  y: 1,
  b: 4,
  n: 2,
  q: 2,
  i: 4,
  u: 4,
  x: 8,
  t: 8,
  d: 8,
  s: 4,
  o: 4,
  g: 1,
  a: 4,
  '(': 8,
  '{': 8,
  v: 1,
  h: 4,
};

class Reader {
  constructor(
    private readonly buffer: Buffer,
    /** Where `buffer` starts in the message: alignment is counted from the message's start. */
    private readonly base: number,
    public at = 0,
  ) {}
  align(to: number) {
    this.at += (to - ((this.base + this.at) % to)) % to;
  }
  private need(bytes: number) {
    if (this.at + bytes > this.buffer.length) throw new DbusError('protocol', 'message ends early');
  }
  read(type: string): DbusValue {
    const first = type[0]!;
    const align = ALIGN[first];
    if (align === undefined) throw new DbusError('protocol', `unknown type ${type}`);
    this.align(align);
    switch (first) {
      case 'y':
        this.need(1);
        return this.buffer.readUInt8(this.at++);
      case 'b':
        return this.fixed(4, () => this.buffer.readUInt32LE(this.at) !== 0);
      case 'n':
        return this.fixed(2, () => this.buffer.readInt16LE(this.at));
      case 'q':
        return this.fixed(2, () => this.buffer.readUInt16LE(this.at));
      case 'i':
        return this.fixed(4, () => this.buffer.readInt32LE(this.at));
      case 'u':
      case 'h':
        return this.fixed(4, () => this.buffer.readUInt32LE(this.at));
      case 'x':
        return this.fixed(8, () => this.buffer.readBigInt64LE(this.at));
      case 't':
        return this.fixed(8, () => this.buffer.readBigUInt64LE(this.at));
      case 'd':
        return this.fixed(8, () => this.buffer.readDoubleLE(this.at));
      case 's':
      case 'o': {
        const length = this.fixed(4, () => this.buffer.readUInt32LE(this.at));
        return this.text(length);
      }
      case 'g': {
        this.need(1);
        return this.text(this.buffer.readUInt8(this.at++));
      }
      case 'v':
        return this.read(this.read('g') as string);
      case 'a': {
        const length = this.fixed(4, () => this.buffer.readUInt32LE(this.at));
        const element = type.slice(1);
        this.align(ALIGN[element[0]!] ?? 1);
        const end = this.at + length;
        if (end > this.buffer.length) throw new DbusError('protocol', 'array ends past the message');
        const values: DbusValue[] = [];
        while (this.at < end) values.push(this.read(element));
        return values;
      }
      default:
        // A struct or a dict entry: its members in order.
        return splitSignature(type.slice(1, -1)).map((member) => this.read(member));
    }
  }
  private fixed<T>(bytes: number, read: () => T): T {
    this.need(bytes);
    const value = read();
    this.at += bytes;
    return value;
  }
  private text(length: number): string {
    this.need(length + 1);
    const value = this.buffer.toString('utf8', this.at, this.at + length);
    this.at += length + 1;
    return value;
  }
}

interface Message {
  type: number;
  replySerial?: number;
  errorName?: string;
  body: DbusValue[];
}

/** The whole length of the message at the start of `buffer`, or undefined while it is incomplete. */
function messageLength(buffer: Buffer): number | undefined {
  if (buffer.length < 16) return undefined;
  if (buffer[0] !== 'l'.charCodeAt(0)) throw new DbusError('protocol', 'a big-endian message');
  const fields = buffer.readUInt32LE(12);
  const total = 16 + fields + ((8 - (fields % 8)) % 8) + buffer.readUInt32LE(4);
  if (total > MAX_MESSAGE_BYTES) throw new DbusError('protocol', 'message too long');
  return buffer.length >= total ? total : undefined;
}

export function decodeMessage(buffer: Buffer): Message {
  const reader = new Reader(buffer, 0, 12);
  const fields = reader.read('a(yv)') as Array<[number, DbusValue]>;
  reader.align(8);
  const field = (code: number) => fields.find(([key]) => key === code)?.[1];
  const signature = (field(8) as string | undefined) ?? '';
  const body = new Reader(buffer.subarray(reader.at), 0);
  const replySerial = field(5);
  const errorName = field(4);
  return {
    type: buffer[1]!,
    ...(typeof replySerial === 'number' ? { replySerial } : {}),
    ...(typeof errorName === 'string' ? { errorName } : {}),
    body: splitSignature(signature).map((type) => body.read(type)),
  };
}

// ---- the conversation ----------------------------------------------------------------------

const DEFAULT_TIMEOUT_MS = 5000;

/**
 * Connects to the bus at `socketPath`, runs `work` with it and closes it. The deadline covers the
 * whole conversation.
 */
export async function withDbus<T>(
  socketPath: string,
  work: (bus: DbusBus) => Promise<T>,
  options: { timeoutMs?: number } = {},
): Promise<T> {
  const socket = createConnection({ path: socketPath });
  const connection = new Connection(socket);
  const timer = setTimeout(
    () => connection.fail(new DbusError('timeout', `no answer from the bus at ${socketPath}`)),
    options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  );
  try {
    await connection.authenticate();
    await connection.call({
      destination: 'org.freedesktop.DBus',
      path: '/org/freedesktop/DBus',
      interface: 'org.freedesktop.DBus',
      member: 'Hello',
    });
    return await work(connection);
  } finally {
    clearTimeout(timer);
    socket.destroy();
  }
}

class Connection implements DbusBus {
  private received = Buffer.alloc(0);
  private serial = 0;
  private failure: Error | undefined;
  private waiting: (() => void) | undefined;

  constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      if (this.received.length > MAX_MESSAGE_BYTES) this.fail(new DbusError('protocol', 'too much data'));
      this.wake();
    });
    socket.on('error', (error) => this.fail(new DbusError('io', error.message)));
    socket.on('close', () => this.fail(new DbusError('io', 'the bus closed the connection')));
  }

  fail(error: Error) {
    this.failure ??= error;
    this.wake();
  }

  private wake() {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }

  /** Resolves once `take` finds what it wants in what was received (it consumes it). */
  private async until<T>(take: () => T | undefined): Promise<T> {
    for (;;) {
      const found = take();
      if (found !== undefined) return found;
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  async authenticate() {
    const uid = Buffer.from(String(process.getuid?.() ?? 0), 'ascii').toString('hex');
    this.socket.write(`\0AUTH EXTERNAL ${uid}\r\n`);
    const line = await this.until(() => {
      const end = this.received.indexOf('\r\n');
      if (end < 0) return undefined;
      const text = this.received.toString('ascii', 0, end);
      this.received = this.received.subarray(end + 2);
      return text;
    });
    if (!line.startsWith('OK ')) throw new DbusError('protocol', `the bus refused us: ${line.slice(0, 200)}`);
    this.socket.write('BEGIN\r\n');
  }

  async call(call: DbusCall): Promise<DbusValue[]> {
    const serial = ++this.serial;
    this.socket.write(encodeCall(call, serial));
    // Signals (NameAcquired after Hello) and anything else not answering this call are skipped.
    const reply = await this.until(() => {
      for (;;) {
        const length = messageLength(this.received);
        if (length === undefined) return undefined;
        const message = decodeMessage(this.received.subarray(0, length));
        this.received = this.received.subarray(length);
        if (message.replySerial === serial && (message.type === METHOD_RETURN || message.type === ERROR))
          return message;
      }
    });
    if (reply.type === ERROR)
      throw new DbusError(
        reply.errorName ?? 'org.freedesktop.DBus.Error.Failed',
        `${call.member}: ${typeof reply.body[0] === 'string' ? reply.body[0] : (reply.errorName ?? 'failed')}`,
      );
    return reply.body;
  }
}
