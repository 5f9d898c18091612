import { expect } from 'chai';
import {
  findSimilarProjects,
  levenshtein,
  nameSimilarity,
  normalizeName,
  similarityReason,
  SIMILAR_MAX,
  urlHost,
  wordOverlap,
  type ExistingProject,
} from '../../../plugins/projects/dist/services/similarity.js';

const existing = (id: number, name: string, main_url: string | null = null): ExistingProject => ({ id, name, key: `K${id}`, main_url });

describe('projects: similar-project check (pure)', () => {
  it('normalizes case, punctuation, diacritics and whitespace', () => {
    expect(normalizeName('  Shop-Front!!  Web ')).to.equal('shop front web');
    expect(normalizeName('Crème  BRÛLÉE')).to.equal('creme brulee');
    expect(normalizeName('テスト アプリ')).to.equal('テスト アプリ');
  });

  it('computes Levenshtein distance and normalized similarity', () => {
    expect(levenshtein('kitten', 'sitting')).to.equal(3);
    expect(levenshtein('', 'abc')).to.equal(3);
    expect(levenshtein('same', 'same')).to.equal(0);
    expect(nameSimilarity('shop', 'shops')).to.equal(0.8);
    expect(nameSimilarity('', '')).to.equal(1);
  });

  it('measures word overlap', () => {
    expect(wordOverlap('acme checkout', 'acme checkout mobile')).to.deep.equal({ shared: 2, jaccard: 2 / 3 });
    expect(wordOverlap('a b', 'c d')).to.deep.equal({ shared: 0, jaccard: 0 });
  });

  it('extracts the host of a URL without www and keeps the port', () => {
    expect(urlHost('https://WWW.Example.com/path?q=1')).to.equal('example.com');
    expect(urlHost('http://localhost:3000/')).to.equal('localhost:3000');
    expect(urlHost(null)).to.equal(null);
    expect(urlHost('not a url')).to.equal(null);
  });

  it('finds the same name after normalization, including spacing', () => {
    expect(similarityReason({ name: 'my shop!' }, existing(1, 'My  Shop'))).to.equal('same_name');
    expect(similarityReason({ name: 'Check out' }, existing(1, 'Checkout'))).to.equal('same_name');
  });

  it('finds close fuzzy matches and word-set overlaps', () => {
    expect(similarityReason({ name: 'Storefrnt' }, existing(1, 'Storefront'))).to.equal('similar_name');
    expect(similarityReason({ name: 'Web App Shop' }, existing(1, 'Shop Web App'))).to.equal('shared_words');
    expect(similarityReason({ name: 'Acme Checkout Mobile' }, existing(1, 'Acme Checkout'))).to.equal('shared_words');
  });

  it('finds the same main_url host', () => {
    expect(similarityReason({ name: 'Marketing', main_url: 'https://www.acme.io/a' }, existing(1, 'Docs', 'https://acme.io/b'))).to.equal('same_host');
    expect(similarityReason({ name: 'Marketing', main_url: 'http://localhost:3000' }, existing(1, 'Docs', 'http://localhost:4000'))).to.equal(null);
  });

  it('does not flag unrelated names', () => {
    expect(similarityReason({ name: 'Acme Web' }, existing(1, 'Acme Mobile'))).to.equal(null);
    expect(similarityReason({ name: 'Billing' }, existing(1, 'Shipping Labels'))).to.equal(null);
    expect(similarityReason({ name: 'app' }, existing(1, 'api'))).to.equal(null);
    expect(similarityReason({ name: 'Docs', main_url: 'https://docs.acme.io' }, existing(1, 'Shop', null))).to.equal(null);
  });

  it('reports strongest reasons first and at most SIMILAR_MAX', () => {
    const list = [existing(1, 'Storefrnt'), existing(2, 'Other', 'https://store.example.com'), existing(3, 'storefront')];
    const hits = findSimilarProjects({ name: 'Storefront', main_url: 'https://store.example.com/x' }, list);
    expect(hits).to.deep.equal([
      { id: 3, name: 'storefront', key: 'K3', reason: 'same_name' },
      { id: 2, name: 'Other', key: 'K2', reason: 'same_host' },
      { id: 1, name: 'Storefrnt', key: 'K1', reason: 'similar_name' },
    ]);
    const many = Array.from({ length: 9 }, (_, i) => existing(i + 1, 'Storefront'));
    expect(findSimilarProjects({ name: 'Storefront' }, many)).to.have.length(SIMILAR_MAX);
    expect(findSimilarProjects({ name: 'Billing' }, many)).to.deep.equal([]);
  });
});
