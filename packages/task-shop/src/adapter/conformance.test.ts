import { describeAdapterConformance } from '@skillrl/testkit/vitest';
import { createShopAdapter } from './shop-adapter.js';

// A smaller catalogue than the default keeps the kit's repeated loads quick; the behaviour is the same.
describeAdapterConformance(createShopAdapter({ products: 300 }));
