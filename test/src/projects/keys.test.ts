import { expect } from 'chai';
import fc from 'fast-check';
import {
  baseKeyFromName,
  baseSlugFromName,
  checkExplicitKey,
  deriveKey,
  deriveSlug,
  KEY_MAX,
  SLUG_MAX,
} from '../../../plugins/projects/dist/services/keys.js';

describe('projects: key and slug derivation (pure)', () => {
  it('uses initials for multi-word names and the letters of a single word', () => {
    expect(baseKeyFromName('Checkout Web App')).to.equal('CWA');
    expect(baseKeyFromName('storefront')).to.equal('STOREFRONT');
    expect(baseKeyFromName('Internationalization')).to.equal('INTERNATIO');
    expect(baseKeyFromName('  café-crème  ')).to.equal('CC');
    expect(baseKeyFromName('Shop 2')).to.equal('S2');
  });

  it('falls back to PROJ when the name has no Latin letters or digits', () => {
    expect(baseKeyFromName('テスト')).to.equal('PROJ');
    expect(baseKeyFromName('!!!')).to.equal('PROJ');
  });

  it('adds a numeric suffix within 10 characters on collision', () => {
    expect(deriveKey('Checkout Web App', new Set())).to.equal('CWA');
    expect(deriveKey('Checkout Web App', new Set(['CWA']))).to.equal('CWA2');
    expect(deriveKey('Checkout Web App', new Set(['CWA', 'CWA2']))).to.equal('CWA3');
    expect(deriveKey('Storefront', new Set(['STOREFRONT']))).to.equal('STOREFRON2');
    const taken = new Set(['STOREFRONT', ...Array.from({ length: 8 }, (_, i) => `STOREFRON${i + 2}`)]);
    expect(deriveKey('Storefront', taken)).to.equal('STOREFRO10');
  });

  it('always yields a free key of 1-10 upper-case letters/digits (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.array(fc.stringMatching(/^[A-Z0-9]{1,10}$/), { maxLength: 30 }), (name, takenList) => {
        const taken = new Set(takenList);
        const key = deriveKey(name, taken);
        expect(key).to.match(/^[A-Z0-9]{1,10}$/);
        expect(key.length).to.be.at.most(KEY_MAX);
        expect(taken.has(key)).to.equal(false);
      }),
    );
  });

  it('validates explicit keys after upper-casing', () => {
    expect(checkExplicitKey('shop1')).to.deep.equal({ key: 'SHOP1' });
    expect(checkExplicitKey('ABCDEFGHIJ')).to.deep.equal({ key: 'ABCDEFGHIJ' });
    expect(checkExplicitKey('ABCDEFGHIJK')).to.have.property('problem').that.matches(/11 characters; the maximum is 10/);
    expect(checkExplicitKey('AB_C')).to.have.property('problem').that.matches(/only letters A-Z and digits 0-9/);
    expect(checkExplicitKey('AB C')).to.have.property('problem');
    expect(checkExplicitKey('')).to.deep.equal({ problem: 'key must not be empty' });
  });

  it('slugifies names and makes them unique with -2, -3', () => {
    expect(baseSlugFromName('Checkout — Web App!')).to.equal('checkout-web-app');
    expect(baseSlugFromName('Crème Brûlée')).to.equal('creme-brulee');
    expect(baseSlugFromName('テスト')).to.equal('project');
    expect(deriveSlug('Shop', new Set(['shop']))).to.equal('shop-2');
    expect(deriveSlug('Shop', new Set(['shop', 'shop-2']))).to.equal('shop-3');
    const long = 'word '.repeat(30);
    const slug = deriveSlug(long, new Set([baseSlugFromName(long)]));
    expect(slug.length).to.be.at.most(SLUG_MAX);
    expect(slug).to.match(/[a-z]-2$/);
  });
});
