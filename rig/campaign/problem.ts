/** A problem in a campaign file: where (a key path) and what to do about it (one line). */
export interface CampaignProblem {
  path: PropertyKey[];
  message: string;
}
