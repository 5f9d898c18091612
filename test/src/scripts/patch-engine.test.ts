import { expect } from 'chai';
import fc from 'fast-check';
import { applyPatch, countOccurrences } from '@testkeeper/plugin-scripts/patch';

describe('patch engine', () => {
  const code = 'const a = 1;\nconst b = 2;\nconsole.log(a + b);\n';

  it('applies edits in order, each on the previous output', () => {
    const out = applyPatch(code, [
      { old_string: 'const a = 1;', new_string: 'const a = 10;' },
      { old_string: 'const a = 10;\nconst b', new_string: 'const a = 10;\nlet b' },
    ]);
    expect(out).to.deep.equal({ ok: true, code: 'const a = 10;\nlet b = 2;\nconsole.log(a + b);\n', replacements: [1, 1] });
  });

  it('rejects a missing anchor and names the edit', () => {
    const out = applyPatch(code, [
      { old_string: 'const a', new_string: 'let a' },
      { old_string: 'nowhere', new_string: 'x' },
    ]);
    expect(out.ok).to.equal(false);
    if (out.ok) return;
    expect(out.index).to.equal(1);
    expect(out.reason).to.equal('not_found');
    expect(out.message).to.match(/^patch\[1\]: old_string was not found/);
  });

  it('rejects an ambiguous anchor unless replace_all is set', () => {
    const amb = applyPatch(code, [{ old_string: 'const', new_string: 'let' }]);
    expect(amb).to.include({ ok: false, index: 0, reason: 'ambiguous', occurrences: 2 });
    const all = applyPatch(code, [{ old_string: 'const', new_string: 'let', replace_all: true }]);
    expect(all).to.deep.equal({ ok: true, code: code.replaceAll('const', 'let'), replacements: [2] });
  });

  it('counts overlapping occurrences as ambiguous', () => {
    expect(countOccurrences('aaa', 'aa')).to.equal(2);
    expect(applyPatch('aaa', [{ old_string: 'aa', new_string: 'b' }])).to.include({ ok: false, reason: 'ambiguous' });
  });

  it('rejects an empty anchor', () => {
    expect(applyPatch(code, [{ old_string: '', new_string: 'x' }])).to.include({ ok: false, reason: 'empty_anchor', index: 0 });
  });

  it('inserts $ patterns literally (no String.replace expansion)', () => {
    const out = applyPatch('price', [{ old_string: 'price', new_string: "$& $' $1 $$" }]);
    expect(out).to.deep.include({ ok: true, code: "$& $' $1 $$" });
  });

  describe('properties', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '\n', ' ', '$'), maxLength: 40 });

    it('a unique anchor is replaced exactly at its position', () => {
      fc.assert(
        fc.property(text, text, text, (before, after, replacement) => {
          const anchor = '\u0001ANCHOR\u0001';
          const out = applyPatch(before + anchor + after, [{ old_string: anchor, new_string: replacement }]);
          expect(out).to.deep.equal({ ok: true, code: before + replacement + after, replacements: [1] });
        }),
      );
    });

    it('replace_all equals split/join and never fails on a present anchor', () => {
      fc.assert(
        fc.property(text, fc.string({ unit: fc.constantFrom('a', 'b'), minLength: 1, maxLength: 3 }), text, (src, anchor, replacement) => {
          fc.pre(src.includes(anchor));
          const out = applyPatch(src, [{ old_string: anchor, new_string: replacement, replace_all: true }]);
          expect(out.ok).to.equal(true);
          if (out.ok) expect(out.code).to.equal(src.split(anchor).join(replacement));
        }),
      );
    });

    it('is all or nothing: a failing edit anywhere fails the whole patch', () => {
      fc.assert(
        fc.property(fc.array(fc.record({ old_string: text, new_string: text }), { maxLength: 6 }), text, (edits, src) => {
          const out = applyPatch(src, edits);
          // Re-derive the expected outcome edit by edit: the first bad edit decides.
          let cur = src;
          for (const [i, e] of edits.entries()) {
            const n = countOccurrences(cur, e.old_string);
            if (e.old_string === '' || n !== 1) {
              expect(out.ok).to.equal(false);
              if (!out.ok) expect(out.index).to.equal(i);
              return;
            }
            cur = cur.replace(e.old_string, () => e.new_string);
          }
          expect(out).to.deep.equal({ ok: true, code: cur, replacements: edits.map(() => 1) });
        }),
      );
    });

    it('undoing a unique edit restores the original', () => {
      fc.assert(
        fc.property(text, text, (before, after) => {
          const src = `${before}<<X>>${after}`;
          fc.pre(countOccurrences(src, '<<X>>') === 1);
          const fwd = applyPatch(src, [{ old_string: '<<X>>', new_string: '<<Y>>' }]);
          fc.pre(fwd.ok && countOccurrences(fwd.code, '<<Y>>') === 1);
          if (!fwd.ok) return;
          expect(applyPatch(fwd.code, [{ old_string: '<<Y>>', new_string: '<<X>>' }])).to.deep.include({ ok: true, code: src });
        }),
      );
    });
  });
});
