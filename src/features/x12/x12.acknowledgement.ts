/**
 * What the acknowledgement readers share: the error that refuses a file (x12.999.ts, x12.277ca.ts), the interchange
 * an acknowledgement came in, and reading the text as X12 (docs/x12-837.md).
 */
import { parseX12, X12Error, type X12Document } from './x12.parse';

/** A file that is X12 but not an acknowledgement this product reads, or one that breaks the guide's structure. */
export class AcknowledgementFormatError extends Error {
  override readonly name = 'AcknowledgementFormatError';
  constructor(
    readonly code: 'X12_INVALID' | 'NOT_AN_ACKNOWLEDGEMENT' | 'ACKNOWLEDGEMENT_INVALID',
    message: string,
  ) {
    super(message);
  }
}

/** The interchange an acknowledgement came in (ISA06, ISA13 of the first): with the kind, what makes it the same one. */
export interface AckInterchange {
  senderId: string;
  controlNumber: string;
}

/** The text read as X12; a syntax or envelope error refuses it as X12_INVALID. */
export function parseAcknowledgement(text: string): X12Document {
  try {
    return parseX12(text);
  } catch (error) {
    if (error instanceof X12Error)
      throw new AcknowledgementFormatError('X12_INVALID', `not a valid X12 file: ${error.message}`);
    throw error;
  }
}
