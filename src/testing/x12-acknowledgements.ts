/**
 * Acknowledgement files for tests, as a clearinghouse would send them back for an 837P batch: a 999
 * (ASC X12 005010X231A1) and a 277CA (ASC X12 005010X214). Bodies are written segment by segment here, after the
 * guides' structure; the X12 writer only adds the envelope and its counts.
 */
import { envelope, type X12SegmentInput } from '@/features/x12/x12.serialize';

/** 'AK1*HC*201*005010X222A1' as a segment; a value with ':' is a composite. */
export function segment(text: string): X12SegmentInput {
  const [id = '', ...elements] = text.split('*');
  return { id, elements: elements.map((e) => (e.includes(':') ? e.split(':') : e)) };
}

function interchange(
  functionalId: string,
  version: string,
  setId: string,
  controlNumber: number,
  body: string[],
): string {
  return envelope({
    isa: {
      senderQualifier: 'ZZ',
      senderId: 'PRAIRIECH',
      receiverQualifier: 'ZZ',
      receiverId: 'SUBMITTER',
      date: '261124',
      time: '1130',
      controlNumber,
      ackRequested: '0',
      usage: 'T',
    },
    gs: {
      functionalId,
      senderId: 'PRAIRIECH',
      receiverId: 'SUBMITTER',
      date: '20261124',
      time: '1130',
      controlNumber,
      version,
    },
    sets: [{ id: setId, controlNumber: '0001', implementation: version, segments: body.map(segment) }],
  });
}

export interface Set999 {
  /** The 837's ST02. */
  controlNumber: string;
  /** IK5-01: A, E, R… */
  code: string;
  /** IK3/IK4 (and CTX) lines between AK2 and IK5, e.g. 'IK3*CLM*22*2300*8', 'IK4*5:3*1325*7*9'. */
  errors?: string[];
  /** IK5-02… */
  setErrorCodes?: string[];
}

/** A 999 for one functional group of an 837 (its GS06), with an AK2…IK5 loop per set listed. */
export function ack999(options: {
  interchangeControlNumber: number;
  groupControlNumber: number;
  sets: Set999[];
  /** AK9-01; by default A when every set is accepted, R when none is, P otherwise. */
  groupCode?: string;
  received?: number;
}): string {
  const accepted = options.sets.filter((s) => s.code === 'A' || s.code === 'E').length;
  const groupCode = options.groupCode ?? (accepted === options.sets.length ? 'A' : accepted === 0 ? 'R' : 'P');
  const received = options.received ?? options.sets.length;
  return interchange('FA', '005010X231A1', '999', options.interchangeControlNumber, [
    `AK1*HC*${options.groupControlNumber}*005010X222A1`,
    ...options.sets.flatMap((set) => [
      `AK2*837*${set.controlNumber}*005010X222A1`,
      ...(set.errors ?? []),
      ['IK5', set.code, ...(set.setErrorCodes ?? [])].join('*'),
    ]),
    `AK9*${groupCode}*${received}*${received}*${accepted}`,
  ]);
}

export interface Claim277 {
  /** CLM01 echoed in TRN02. */
  accountNumber: string;
  /** STC01, e.g. 'A2:20:PR' accepted, 'A7:562:85' rejected. */
  status: string;
  billedCents: number;
  /** STC12 free text. */
  text?: string;
  /** REF*1K. */
  payerClaimNumber?: string;
  patient?: { lastName: string; firstName: string; memberId: string };
  serviceDate?: string;
}

/** A 277CA answering claims of one billing provider, one patient level (2000D) per claim. */
export function ack277CA(options: {
  interchangeControlNumber: number;
  claims: Claim277[];
  billingNpi?: string;
  /** The 837's BHT03, echoed in 2200B. */
  batchReference?: string;
}): string {
  const accepted = options.claims.filter((c) => c.status.startsWith('A2'));
  const rejected = options.claims.filter((c) => !c.status.startsWith('A2') && !c.status.startsWith('A1'));
  const sum = (claims: Claim277[]) => (claims.reduce((s, c) => s + c.billedCents, 0) / 100).toFixed(2);
  const body = [
    'BHT*0085*08*277CA-1*20261124*1130*TH',
    'HL*1**20*1',
    'NM1*AY*2*PRAIRIE CLEARINGHOUSE*****46*PRAIRIECH',
    'TRN*1*CH20261124001',
    'DTP*050*D8*20261124',
    'DTP*009*D8*20261124',
    'HL*2*1*21*1',
    'NM1*41*2*RIVERSIDE FAMILY PRACTICE LLC*****46*371234567',
    `TRN*2*${options.batchReference ?? '1'}`,
    'STC*A1:19:PR*20261124*WQ*' + sum(options.claims),
    `QTY*90*${accepted.length}`,
    `QTY*AA*${rejected.length}`,
    `AMT*YU*${sum(accepted)}`,
    `AMT*YY*${sum(rejected)}`,
    'HL*3*2*19*1',
    `NM1*85*2*RIVERSIDE FAMILY PRACTICE LLC*****XX*${options.billingNpi ?? '1667788990'}`,
    'TRN*1*0',
    `QTY*QA*${accepted.length}`,
    `QTY*QC*${rejected.length}`,
  ];
  options.claims.forEach((claim, i) => {
    const patient = claim.patient ?? { lastName: 'PATIENT', firstName: 'ANY', memberId: 'M1' };
    const action = claim.status.startsWith('A2') || claim.status.startsWith('A1') ? 'WQ' : 'U';
    const text = claim.text ? `********${claim.text}` : '';
    body.push(
      `HL*${4 + i}*3*PT`,
      `NM1*QC*1*${patient.lastName}*${patient.firstName}****MI*${patient.memberId}`,
      `TRN*2*${claim.accountNumber}`,
      `STC*${claim.status}*20261124*${action}*${(claim.billedCents / 100).toFixed(2)}${text}`,
      ...(claim.payerClaimNumber ? [`REF*1K*${claim.payerClaimNumber}`] : []),
      `REF*D9*CH${String(i + 1).padStart(6, '0')}`,
      `DTP*472*D8*${(claim.serviceDate ?? '2026-11-20').replaceAll('-', '')}`,
    );
  });
  return interchange('HN', '005010X214', '277', options.interchangeControlNumber, body);
}
