/** GraphQL documents r2v sends. The operation name is what the fake server routes on. */
export const CLOSING_ISSUES_OPERATION = 'ClosingIssues';

export const closingIssuesQuery = `query ${CLOSING_ISSUES_OPERATION}($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      closingIssuesReferences(first: 100) {
        nodes { number repository { nameWithOwner } }
      }
    }
  }
}`;
