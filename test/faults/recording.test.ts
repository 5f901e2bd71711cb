/** The recording the helper keeps with --record (faults/recording.ts): its format, its refusals, its open tail. */
import t from 'tap';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeRecording, indexRecording, readRecordedData, type EncodableEvent, type RecordedWrite } from '../../faults/recording.js';

const dir = mkdtempSync(join(tmpdir(), 'rig-recording-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
function saved(data: Buffer): string {
  const path = join(dir, `r${files++}.pfr`);
  writeFileSync(path, data);
  return path;
}

const data = (n: number, seed: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff));
const events: EncodableEvent[] = [
  { kind: 'write', seq: 0, offset: 1 << 30, tUs: 1_000_000_000_001, data: data(16384, 1) },
  { kind: 'write', seq: 1, offset: 512, tUs: 1_000_000_000_002, data: data(512, 2) },
  { kind: 'flush', boundary: 2, number: 1, tUs: 1_000_000_000_003 },
  { kind: 'write', seq: 2, offset: 0, tUs: 1_000_000_000_004, data: data(1 << 20, 3) },
  { kind: 'cut', next: 3, tUs: 1_000_000_000_005 },
];
const full = encodeRecording(events);
const HEADER = 32;

t.test('events and their data survive the format, times as whole microseconds', async (t) => {
  const path = saved(full);
  const r = indexRecording(path);
  t.equal(r.path, path);
  t.equal(r.bytes, full.length);
  t.equal(r.ended, 'cut');
  t.same(r.events.map((e) => ({ ...e, dataAt: undefined })), events.map((e) =>
    e.kind === 'write' ? { kind: 'write', seq: e.seq, offset: e.offset, length: e.data.length, tUs: e.tUs, dataAt: undefined } : { ...e, dataAt: undefined }));
  t.same(r.events.filter((e) => e.kind === 'write').map((e) => e.dataAt), [4 + HEADER, 4 + 2 * HEADER + 16384, 4 + 4 * HEADER + 16384 + 512]);
  const fd = openSync(path, 'r');
  t.teardown(() => closeSync(fd));
  const writes = r.events.filter((e): e is RecordedWrite => e.kind === 'write');
  writes.forEach((w, i) => t.ok(readRecordedData(fd, w).equals((events.filter((e) => e.kind === 'write')[i] as { data: Buffer }).data), `write ${i}'s data`));
  t.throws(() => readRecordedData(fd, { ...writes[0]!, dataAt: full.length - 10 }), /ends inside write 0's data/);
});

t.test('a recording that reached its bound ends truncated; an empty one is open', async (t) => {
  const r = indexRecording(saved(encodeRecording([events[0]!, { kind: 'truncated', next: 1, tUs: 7 }])));
  t.equal(r.ended, 'truncated');
  t.same(r.events[1], { kind: 'truncated', next: 1, tUs: 7 });
  t.same(indexRecording(saved(encodeRecording([]))), { path: join(dir, `r${files - 1}.pfr`), events: [], bytes: 4, ended: 'open' });
});

t.test('a last event cut short (the helper died mid-append) is dropped and the recording is open', async (t) => {
  const open = encodeRecording(events.slice(0, 4));
  const lastAt = open.length - HEADER - (1 << 20);
  for (const [name, end] of [['its header', lastAt + 20], ['its data', open.length - 1], ['right after its header', lastAt + HEADER]] as const) {
    t.test(`cut short in ${name}`, async (t) => {
      const r = indexRecording(saved(open.subarray(0, end)));
      t.equal(r.ended, 'open');
      t.equal(r.bytes, end);
      t.same(r.events.map((e) => e.kind), ['write', 'write', 'flush']);
    });
  }
  t.equal(indexRecording(saved(open)).events.length, 4, 'whole, the same file keeps it');
});

t.test('a file that is not a recording, or breaks it, is refused with its name and where', async (t) => {
  const at = (i: number) => { // byte offset of event i in `full`
    let pos = 4;
    for (const e of events.slice(0, i)) pos += HEADER + (e.kind === 'write' ? e.data.length : 0);
    return pos;
  };
  const patched = (i: number, field: number, value: number) => {
    const b = Buffer.from(full);
    b.writeUInt32LE(value, at(i) + field);
    return b;
  };
  const cases: Array<[string, Buffer, RegExp]> = [
    ['no magic', Buffer.from('PFO1' + 'x'.repeat(40), 'latin1'), /r\d+\.pfr is not a power-fail disk recording \(no PFR1 header\)/],
    ['shorter than the magic', Buffer.from('PF'), /is not a power-fail disk recording/],
    ['an empty file', Buffer.alloc(0), /is not a power-fail disk recording/],
    ['an unknown kind', patched(2, 0, 3), /r\d+\.pfr: event 2 at byte 16964 has unknown kind 3/],
    ['a flush with data', patched(2, 4, 8), /event 2 at byte 16964 has kind 2 but 8 bytes of data/],
    ['an event after the cut', Buffer.concat([full, encodeRecording([{ kind: 'flush', boundary: 3, number: 2, tUs: 9 }]).subarray(4)]), /event 5 at byte \d+ follows the recording's cut event/],
    ['a partial header after the cut', Buffer.concat([full, Buffer.alloc(5)]), /event 5 at byte \d+ follows the recording's cut event/],
    ['an event after truncated', encodeRecording([{ kind: 'truncated', next: 0, tUs: 1 }, { kind: 'cut', next: 0, tUs: 2 }]), /event 1 at byte 36 follows the recording's truncated event/],
  ];
  for (const [name, bytes, error] of cases) {
    t.test(name, async (t) => {
      t.throws(() => indexRecording(saved(bytes)), { name: 'DiskError', code: 'rig-failure', message: error });
    });
  }
});

t.test('a recording larger than the read chunk is indexed across chunks', async (t) => {
  const many: EncodableEvent[] = [];
  for (let seq = 0; seq < 600; seq++) {
    many.push({ kind: 'write', seq, offset: seq * 4096, tUs: seq, data: data(seq % 7 === 0 ? 98304 + 13 : 4096 + seq, seq) });
    if (seq % 10 === 9) many.push({ kind: 'flush', boundary: seq + 1, number: (seq + 1) / 10, tUs: seq });
  }
  const path = saved(encodeRecording(many));
  const r = indexRecording(path);
  t.ok(r.bytes > 8 << 20, `${r.bytes} bytes: more than two chunks`);
  t.equal(r.events.length, many.length);
  t.same(r.events.filter((e) => e.kind === 'flush').length, 60);
  const fd = openSync(path, 'r');
  t.teardown(() => closeSync(fd));
  const writes = r.events.filter((e): e is RecordedWrite => e.kind === 'write');
  const wrong = writes.filter((w) => !readRecordedData(fd, w).equals(data(w.length, w.seq)) || w.offset !== w.seq * 4096);
  t.same(wrong.map((w) => w.seq), [], 'every write read back whole');
});
