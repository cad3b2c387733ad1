import type { AddressInfo, Socket } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';

/** A real SMTP server on 127.0.0.1 for tests: what it received, and answers chosen by the test. */
export interface Received {
  parsed: ParsedMail;
  raw: string;
  mailFrom: string | undefined;
  rcptTo: string[];
  user: string | undefined;
}

export interface Behaviour {
  /** When set, AUTH PLAIN/LOGIN is required and checked against these. */
  auth?: { user: string; pass: string };
  /** Reject RCPT TO with this code. */
  rejectRcpt?: (address: string) => number | undefined;
  /** Called when the first bytes of a message's DATA arrive. */
  receiving?: () => void;
  /** Awaited before each message's answer: a test holds messages in flight with it. */
  beforeAnswer?: () => Promise<void>;
  /** Reject the message after DATA with this code. */
  rejectData?: (session: SMTPServerSession) => number | undefined;
}

export interface TestSmtpServer {
  port: number;
  received: Received[];
  connections: number;
  authAttempts: { user: string; pass: string | undefined; method: string }[];
  /** Cuts every open connection, as the death of the client's process would. */
  dropConnections(): void;
}

function smtpError(responseCode: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode });
}

const openServers: SMTPServer[] = [];

/** Closes every server started since the last call (an afterEach/afterAll of the test file). */
export async function closeSmtpServers() {
  await Promise.all(
    openServers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  );
}

export async function startSmtpServer(behaviour: Behaviour = {}): Promise<TestSmtpServer> {
  const sockets = new Set<Socket>();
  const state: TestSmtpServer = {
    port: 0,
    received: [],
    connections: 0,
    authAttempts: [],
    dropConnections: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
  const { auth } = behaviour;
  const server = new SMTPServer({
    logger: false,
    disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !auth,
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    closeTimeout: 1000,
    onConnect(_session, callback) {
      state.connections += 1;
      callback();
    },
    onAuth(attempt, _session, callback) {
      state.authAttempts.push({
        user: attempt.username ?? '',
        pass: attempt.password ?? undefined,
        method: attempt.method,
      });
      if (auth && attempt.username === auth.user && attempt.password === auth.pass) {
        callback(null, { user: attempt.username });
      } else {
        callback(smtpError(535, 'Authentication credentials invalid'));
      }
    },
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const code = behaviour.rejectRcpt?.(address.address);
      callback(code ? smtpError(code, code < 500 ? 'Mailbox busy, try later' : 'No such user') : null);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      if (behaviour.receiving) stream.once('data', behaviour.receiving);
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        await behaviour.beforeAnswer?.();
        const code = behaviour.rejectData?.(session);
        if (code) {
          callback(smtpError(code, code < 500 ? 'Queue full, try later' : 'Message refused'));
          return;
        }
        const raw = Buffer.concat(chunks);
        const { mailFrom, rcptTo } = session.envelope;
        simpleParser(raw).then(
          (parsed) => {
            state.received.push({
              parsed,
              raw: raw.toString('utf8'),
              mailFrom: mailFrom ? mailFrom.address : undefined,
              rcptTo: rcptTo.map((r) => r.address),
              user: session.user,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  server.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  openServers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  state.port = (server.server.address() as AddressInfo).port;
  return state;
}
