import { expect } from 'chai';
import { HostGuard } from '@testkeeper/kernel/host';
import { bearerChallenge, bearerToken } from '../../../kernel/dist/http/bearer.js';

describe('HTTP guards (unit)', function () {
  describe('HostGuard', function () {
    it('accepts loopback names with any port on a loopback bind and nothing else', function () {
      const g = new HostGuard({ bindHost: '127.0.0.1', allowedHosts: [], allowedOrigins: [] });
      for (const h of ['127.0.0.1:3000', 'localhost:3000', 'LOCALHOST', '[::1]:3000', '127.0.0.1']) expect(g.hostAllowed(h), h).to.equal(true);
      for (const h of ['evil.example', 'evil.example:3000', '127.0.0.1.nip.io:3000', '', undefined]) expect(g.hostAllowed(h), String(h)).to.equal(false);
      expect(g.acceptsAnyHost).to.equal(false);
    });

    it('accepts browser origins only from loopback (or configured) origins', function () {
      const g = new HostGuard({ bindHost: '127.0.0.1', allowedHosts: [], allowedOrigins: ['https://app.example.com/'] });
      expect(g.originAllowed(undefined), 'non-browser clients send none').to.equal(true);
      for (const o of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080', 'https://app.example.com']) expect(g.originAllowed(o), o).to.equal(true);
      for (const o of ['http://evil.example', 'null', 'http://localhost.evil.example', 'https://app.example.com.evil']) expect(g.originAllowed(o), o).to.equal(false);
    });

    it('on a public bind accepts only the bind address and http.allowedHosts', function () {
      const g = new HostGuard({ bindHost: '10.0.0.5', allowedHosts: ['tk.example.com'], allowedOrigins: [] });
      for (const h of ['10.0.0.5:3000', 'tk.example.com', 'tk.example.com:443']) expect(g.hostAllowed(h), h).to.equal(true);
      for (const h of ['localhost:3000', 'other.example.com']) expect(g.hostAllowed(h), h).to.equal(false);
      expect(g.originAllowed('http://localhost:3000'), 'loopback origins are not trusted off loopback').to.equal(false);
    });

    it('on a wildcard bind without allowedHosts accepts any Host (the server warns at start)', function () {
      expect(new HostGuard({ bindHost: '0.0.0.0', allowedHosts: [], allowedOrigins: [] }).acceptsAnyHost).to.equal(true);
      const pinned = new HostGuard({ bindHost: '0.0.0.0', allowedHosts: ['tk.example.com'], allowedOrigins: [] });
      expect(pinned.acceptsAnyHost).to.equal(false);
      expect(pinned.hostAllowed('evil.example')).to.equal(false);
    });
  });

  describe('bearer', function () {
    it('extracts the token of a well-formed Bearer header only', function () {
      expect(bearerToken('Bearer tk_abc-DEF_123')).to.equal('tk_abc-DEF_123');
      expect(bearerToken('bearer tk_abc')).to.equal('tk_abc');
      for (const h of [undefined, '', 'Bearer', 'Bearer ', 'Basic dXNlcjpw', 'Bearer a b', 'Bearer "quoted"', 'tk_abc']) expect(bearerToken(h), String(h)).to.equal(null);
    });

    it('challenges without an error code when no credentials were sent (RFC 6750 §3.1)', function () {
      expect(bearerChallenge('missing')).to.equal('Bearer realm="testkeeper"');
      expect(bearerChallenge('invalid')).to.match(/^Bearer realm="testkeeper", error="invalid_token", error_description="[^"]+"$/);
    });
  });
});
