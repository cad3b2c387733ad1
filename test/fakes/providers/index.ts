import type { FakeProvider } from '../fake-providers';

/** Every fake provider; each file under providers/ adds itself here. */
export const allFakeProviders: FakeProvider[] = [];
