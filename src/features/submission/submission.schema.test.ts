import { describe, expect, it } from 'vitest';
import { isClaimStatusResponse, statusRequestFileName } from './submission.schema';

const isa = (element = '*', segment = '~') =>
  `ISA${element}00${element}          ${element}00${element}          ${element}ZZ${element}PAYERHUB       ${element}ZZ${element}PRACTICE       ${element}261122${element}1000${element}^${element}00501${element}000000701${element}0${element}T${element}:${segment}`;

describe('telling a 277 claim status response from an acknowledgement', () => {
  it('reads GS08 with the delimiters the ISA gives', () => {
    expect(isClaimStatusResponse(`${isa()}\nGS*HN*P*R*20261122*1000*1*X*005010X212~ST*277*1*005010X212~`)).toBe(true);
    expect(isClaimStatusResponse(`${isa('|', '!')}GS|HN|P|R|20261122|1000|1|X|005010X212!`)).toBe(true);
  });

  it('says no for a 277CA, a 999, a short or non-X12 text', () => {
    expect(isClaimStatusResponse(`${isa()}GS*HN*P*R*20261122*1000*1*X*005010X214~`)).toBe(false);
    expect(isClaimStatusResponse(`${isa()}GS*FA*P*R*20261122*1000*1*X*005010X231A1~`)).toBe(false);
    expect(isClaimStatusResponse('ISA*00*')).toBe(false);
    expect(isClaimStatusResponse('hello')).toBe(false);
  });

  it('names a 276 download by its request and interchange control number', () => {
    expect(statusRequestFileName(4, 46)).toBe('276-request-4-000000046.txt');
  });
});
