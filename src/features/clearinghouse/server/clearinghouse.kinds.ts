/**
 * Which X12 transaction an inbound file holds, from its envelope alone (ASC X12 005010): GS08 names the
 * implementation guide and ST01 the transaction set, so a 277CA (005010X214) is told from a claim status 277
 * (005010X212) before any reader sees it. A file that is not text, not one well-formed interchange of one kind,
 * or of a kind we do not read is refused here, with the reason in plain words.
 */
import { parseX12, X12Error } from '@/features/x12/x12.parse';
import type { InboundKind } from '../clearinghouse.schema';

/** (GS08, ST01) of each kind the mailbox reads. */
const KIND_BY_GUIDE: Record<string, { set: string; kind: InboundKind }> = {
  '005010X231A1': { set: '999', kind: '999' },
  '005010X214': { set: '277', kind: '277CA' },
  '005010X212': { set: '277', kind: '277' },
  '005010X279A1': { set: '271', kind: '271' },
  '005010X221A1': { set: '835', kind: '835' },
};

export type DetectedFile = { kind: InboundKind; text: string } | { kind: 'unknown'; reason: string };

export function detectInboundKind(content: Buffer): DetectedFile {
  if (content.length === 0) return { kind: 'unknown', reason: 'the file is empty' };
  if (content.includes(0)) return { kind: 'unknown', reason: 'the file is binary (it holds NUL bytes), not X12 text' };
  const text = content.toString('utf8');
  if (text.includes('\uFFFD')) return { kind: 'unknown', reason: 'the file is not text (not valid UTF-8), not X12' };
  let kinds: Set<InboundKind>;
  try {
    const document = parseX12(text);
    kinds = new Set();
    const unknown: string[] = [];
    for (const interchange of document.interchanges) {
      for (const group of interchange.groups) {
        const known = KIND_BY_GUIDE[group.version];
        for (const set of group.transactionSets) {
          if (known && known.set === set.id) kinds.add(known.kind);
          else unknown.push(`${set.id} (${group.version || 'no GS08'})`);
        }
      }
    }
    if (unknown.length > 0) {
      return {
        kind: 'unknown',
        reason: `it holds a transaction set the mailbox does not read: ${[...new Set(unknown)].slice(0, 3).join(', ')}`,
      };
    }
  } catch (error) {
    if (!(error instanceof X12Error)) throw error;
    const why =
      error.code === 'ISA_DELIMITERS'
        ? 'its delimiters are unusable'
        : error.code === 'NOT_X12'
          ? 'not X12'
          : 'not valid X12';
    return { kind: 'unknown', reason: `${why}: ${error.message}` };
  }
  const [kind, ...others] = [...kinds];
  if (!kind) return { kind: 'unknown', reason: 'it holds no transaction set' };
  if (others.length > 0)
    return { kind: 'unknown', reason: `it mixes kinds (${[...kinds].join(', ')}): one kind a file` };
  return { kind, text };
}
