import assert from 'node:assert/strict';
import { Bm25Index, foldPlural, identifierParts, loadKnowledgeBase, tokenize } from '../../../src/knowledge';
import { unwrap } from './helpers';

describe('knowledge: tokenizer', () => {
  it('keeps identifiers whole and also splits camelCase, acronyms and snake_case', () => {
    assert.deepEqual(tokenize('encodeSHA256'), ['encodesha256', 'encode', 'sha256']);
    assert.deepEqual(tokenize('getListLen'), ['getlistlen', 'get', 'list', 'len']);
    assert.deepEqual(tokenize('AddvariableToJSON'), ['addvariabletojson', 'addvariable', 'json']);
    assert.deepEqual(tokenize('go_async'), ['go_async', 'go', 'async']);
    assert.deepEqual(identifierParts('SHA256Hash'), ['SHA256', 'Hash']);
  });

  it('lower-cases, drops stop words and folds simple plurals', () => {
    assert.deepEqual(tokenize('How do I hash the passwords?'), ['hash', 'password']);
    assert.equal(foldPlural('queries'), 'query');
    assert.equal(foldPlural('hashes'), 'hash');
    assert.equal(foldPlural('status'), 'status');
    assert.equal(foldPlural('sha256'), 'sha256');
  });

  it('reads a URL as the single term "url"', () => {
    assert.deepEqual(tokenize('RequestGet(https://api.example.com/users, , , r)'), [
      'requestget',
      'request',
      'get',
      'url',
    ]);
  });
});

describe('knowledge: BM25 index', () => {
  const docs = [
    { id: 'a', fields: [{ text: 'hash a password with encodeSHA256' }] },
    { id: 'b', fields: [{ text: 'loop over a list with startLoop and endLoop' }] },
    { id: 'c', fields: [{ text: 'the weather is nice today' }] },
    { id: 'd', fields: [{ text: 'loop over a list with startLoop and endLoop' }] },
  ];

  it('ranks the matching document first and leaves out documents with no shared term', () => {
    const index = new Bm25Index(docs);
    const hits = index.search('sha256 hash', 10);
    assert.deepEqual(
      hits.map((h) => h.id),
      ['a'],
    );
    assert.ok((hits[0]?.score ?? 0) > 0);
  });

  it('breaks ties by id and honours k', () => {
    const index = new Bm25Index(docs);
    assert.deepEqual(
      index.search('loop list', 10).map((h) => h.id),
      ['b', 'd'],
    );
    assert.deepEqual(
      index.search('loop list', 1).map((h) => h.id),
      ['b'],
    );
    assert.deepEqual(index.search('loop list', 0), []);
    assert.deepEqual(index.search('', 5), []);
  });

  it('weights fields and rewards rarer terms', () => {
    const index = new Bm25Index([
      { id: 'title', fields: [{ text: 'dates', weight: 3 }, { text: 'formatting text' }] },
      { id: 'body', fields: [{ text: 'misc' }, { text: 'dates formatting text' }] },
    ]);
    assert.equal(index.search('dates', 2)[0]?.id, 'title');
    assert.equal(index.documentFrequency('date'), 2);
    assert.equal(index.size, 2);
    assert.ok(index.has('body') && !index.has('nope'));
  });

  it('is deterministic: the same corpus and query give the same scores', () => {
    const a = new Bm25Index(docs).search('loop password weather', 10);
    const b = new Bm25Index([...docs]).search('loop password weather', 10);
    assert.deepEqual(a, b);
  });
});

describe('knowledge: retrieval over the shipped documents', () => {
  const kb = unwrap(loadKnowledgeBase());

  const expectTop = (query: string, docId: string): void => {
    const [top] = kb.search(query, 8);
    assert.ok(top, `no result for "${query}"`);
    assert.equal(kb.chunk(top.id)?.docId, docId, `"${query}" ranked ${top.id} first`);
  };

  it('ranks the encodeSHA256 page first for "sha256 hash"', () => expectTop('sha256 hash', 'command-encodeSHA256'));
  it('ranks the encodeSHA256 page first for the invented name getSHA256', () =>
    expectTop('getSHA256', 'command-encodeSHA256'));
  it('ranks the getDateTime material first for "current date in Madrid"', () => {
    const [top] = kb.search('current date in Madrid', 3);
    assert.ok(['chapter-dates', 'command-getDateTime'].includes(kb.chunk(top?.id ?? '')?.docId ?? ''));
  });
  it('ranks the ormCheckTable page first when asked about it', () =>
    expectTop('what does ormCheckTable return', 'command-ormCheckTable'));
  it('ranks the RequestGet page first for "call an external API with GET"', () =>
    expectTop('call an external API with GET', 'command-RequestGet'));
  it('ranks the loops chapter first for "loop over a list"', () =>
    expectTop('how do I loop over a list', 'chapter-loops'));

  it('returns at most k scored chunk ids, best first', () => {
    const hits = kb.search('error handling try exception', 8);
    assert.equal(hits.length, 8);
    for (let i = 1; i < hits.length; i++) assert.ok((hits[i - 1]?.score ?? 0) >= (hits[i]?.score ?? 0));
    for (const h of hits) assert.ok(kb.chunk(h.id));
  });
});
