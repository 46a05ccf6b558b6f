import type { FakeChatRequest } from '@skillrl/testkit';

export const COLORS: string[];
/** The frozen task model's answer to one chat request (the testkit fake server's `respond`). */
export function respond(request: FakeChatRequest): string;
