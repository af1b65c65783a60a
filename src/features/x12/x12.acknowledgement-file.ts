/**
 * An acknowledgement file as staff upload it or the mailbox fetches it: a 999 or a 277CA, never both, read by the
 * reader that fits it (x12.999.ts, x12.277ca.ts).
 */
import { transactionSetsOf } from './x12.parse';
import { AcknowledgementFormatError, parseAcknowledgement } from './x12.acknowledgement';
import { read999Set, type Ack999 } from './x12.999';
import { read277Set, type Ack277CA } from './x12.277ca';

/**
 * A 999 or a 277CA read from its text. Refused (AcknowledgementFormatError) when the text is not X12, holds
 * neither or both, or breaks the structure this reader relies on.
 */
export function readAcknowledgement(text: string): Ack999 | Ack277CA {
  const document = parseAcknowledgement(text);
  const [first] = document.interchanges;
  const interchange = { senderId: first?.senderId ?? '', controlNumber: first?.controlNumber ?? '' };
  const acks999 = transactionSetsOf(document, '999');
  const acks277 = transactionSetsOf(document, '277');
  if (acks999.length > 0 && acks277.length > 0) {
    throw new AcknowledgementFormatError(
      'NOT_AN_ACKNOWLEDGEMENT',
      'the file holds both 999 and 277 transaction sets: send them one file at a time',
    );
  }
  if (acks999.length > 0) {
    const groups = acks999.map(({ set, group, interchange: { delimiters } }) => {
      const where = `999 ${set.controlNumber}`;
      if (group.functionalId !== 'FA') {
        throw new AcknowledgementFormatError(
          'ACKNOWLEDGEMENT_INVALID',
          `${where}: its functional group is '${group.functionalId}', not FA`,
        );
      }
      return read999Set(set.segments, delimiters, where);
    });
    return { kind: '999', interchange, groups };
  }
  if (acks277.length > 0) {
    const claims = acks277.flatMap(({ set, group, interchange: { delimiters } }) => {
      const version = set.implementation || group.version;
      if (!version.startsWith('005010X214')) {
        throw new AcknowledgementFormatError(
          'NOT_AN_ACKNOWLEDGEMENT',
          `277 ${set.controlNumber} is implementation '${version}', not a 277CA claim acknowledgement (005010X214)`,
        );
      }
      // Each interchange declares its own delimiters: a composite is split by its own, not the file's first.
      return read277Set(set.segments, delimiters, `277CA ${set.controlNumber}`);
    });
    if (claims.length === 0) {
      throw new AcknowledgementFormatError(
        'ACKNOWLEDGEMENT_INVALID',
        'the 277CA answers no claim (no patient level with a TRN)',
      );
    }
    return { kind: '277CA', interchange, claims };
  }
  const found = [
    ...new Set(document.interchanges.flatMap((i) => i.groups.flatMap((g) => g.transactionSets.map((s) => s.id)))),
  ];
  throw new AcknowledgementFormatError(
    'NOT_AN_ACKNOWLEDGEMENT',
    `the file holds no 999 or 277CA${found.length ? ` (it holds ${found.join(', ')})` : ''}`,
  );
}
