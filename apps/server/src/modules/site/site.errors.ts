import { AppError } from '#server/platform/http/errors';

export const siteErrors = {
  pageElsewhere: (title: string) =>
    new AppError(404, 'SITE_PAGE_ELSEWHERE', `This server publishes its ${title} elsewhere.`),
  pageMissing: (title: string) => new AppError(404, 'SITE_PAGE_MISSING', `This server has no ${title}.`),
};
