/*
 * 277 claim status responses for tests, written by hand from the structure of ASC X12 005010X212: ISA/GS (HN), one
 * ST 277 with BHT, the payer (HL 20), the information receiver (HL 21), the provider (HL 19), then per claim the
 * subscriber (HL 22) with its TRN*2 echoing the 276's trace, STC and REF*EJ (the patient account number).
 */
/** A 277 claim status response (005010X212) answering each trace number with its STC01 and REF*EJ. */
export function file277(
  answers: { trace: string; account: string; stc: string; amounts?: [string, string] }[],
  options: { version?: string; control?: string } = {},
): string {
  const version = options.version ?? '005010X212';
  const control = options.control ?? '000000701';
  const body = [
    'BHT*0010*08*STATUS-1*20261122*1000*DG',
    'HL*1**20*1',
    'NM1*PR*2*AETNA*****PI*60054',
    'HL*2*1*21*1',
    'NM1*41*2*PRACTICE*****46*SUBMITTER',
    'HL*3*2*19*1',
    'NM1*1P*2*PRACTICE*****XX*1234567893',
  ];
  answers.forEach((a, i) => {
    body.push(
      `HL*${4 + i}*3*22*0`,
      `NM1*IL*1*DOE*JANE****MI*M${i}`,
      `TRN*2*${a.trace}`,
      `STC*${a.stc}*20261121**${a.amounts?.[0] ?? '100'}*${a.amounts?.[1] ?? '0'}`,
      `REF*EJ*${a.account}`,
    );
  });
  const set = [`ST*277*0001*${version}`, ...body];
  return (
    [
      `ISA*00*          *00*          *ZZ*PAYERHUB       *ZZ*PRACTICE       *261122*1000*^*00501*${control}*0*T*:`,
      `GS*HN*PAYERHUB*PRACTICE*20261122*1000*701*X*${version}`,
      ...set,
      `SE*${set.length + 1}*0001`,
      'GE*1*701',
      `IEA*1*${control}`,
    ].join('~\n') + '~\n'
  );
}
