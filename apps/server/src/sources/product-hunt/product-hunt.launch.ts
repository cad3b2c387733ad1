/** One launch as either way of reading Product Hunt gives it (the API, or the public feed). */
export interface ProductHuntLaunch {
  name: string;
  /** Plain text. */
  tagline: string;
  /** Plain text; '' when there is none (the public feed never has one). */
  description: string;
  /** The launch's page on Product Hunt. */
  url: string;
  /** '' when there is none. */
  thumbnail: string;
  /** null when unknown: the public feed carries no counts. */
  votesCount: number | null;
  commentsCount: number | null;
}
