/** The newsletter mailbox: the address, what arrived, its senders, and the reader of one message. */
export { NewsletterReaderPage } from './pages/NewsletterReaderPage';
export { NewslettersPage } from './pages/NewslettersPage';
