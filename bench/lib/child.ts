import type { ChildProcess } from 'node:child_process';

/** The next message of `type` a forked bench child sends (children answer `{ type, ...fields }`). */
export function nextMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise<T>((resolve) => {
    const on = (msg: { type: string } & T) => {
      if (msg.type === type) {
        child.off('message', on);
        resolve(msg);
      }
    };
    child.on('message', on);
  });
}
