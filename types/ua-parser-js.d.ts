/**
 * The part of ua-parser-js 1.x this project uses (app/modules/auth/account.server.ts).
 * @types/ua-parser-js describes the 0.7 API, no types exist for 1.x, and 2.x (which
 * ships its own) is AGPL (decision 023), so this small declaration stands in.
 */
declare module "ua-parser-js" {
  export interface UAParserPart {
    name?: string | undefined;
    version?: string | undefined;
  }
  export interface UAParserResult {
    ua: string;
    browser: UAParserPart & { major?: string | undefined };
    engine: UAParserPart;
    os: UAParserPart;
    device: { vendor?: string | undefined; model?: string | undefined; type?: string | undefined };
    cpu: { architecture?: string | undefined };
  }
  export class UAParser {
    constructor(userAgent?: string);
    getResult(): UAParserResult;
  }
}
