/** The local fake GitHub lives in src/github (the demo command runs it too); tests import it from here. */
export { startFakeGitHub, parseSearchQuery } from '../../src/github/fake-server.js';
export type { Fault, FaultKind, FakeComment, FakeGitHub, FakeIssue, FakePull, FakeRepo, FakeTimelineEvent, FakeWorld, RecordedRequest } from '../../src/github/fake-server.js';
