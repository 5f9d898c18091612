import { expect } from 'chai';
import { conflict, type ProjectCleanupContribution, type StorageService } from '@testkeeper/kernel';
import { onEachBackend, startTestHost, type TestHost } from '@testkeeper/kernel/testing';
import { ProjectDeletion } from '../../../plugins/projects/dist/services/project-deletion.js';
import { ProjectExtensions } from '../../../plugins/projects/dist/services/project-extensions.js';
import { ProjectSummaries } from '../../../plugins/projects/dist/services/project-summary.js';
import { fakeContributions, recordingLogger, sql, storeFor } from './fakes.js';
import { createProject, storedProject } from './helpers.js';

onEachBackend(describe, before, 'projects: project services with fake contributions', (backend) => {
  let host: TestHost;
  before(async () => {
    host = await startTestHost({ storage: backend });
  });
  after(async () => host?.close());

  describe('ProjectDeletion', () => {
    it('runs every cleanup in one transaction (reverse load order), deletes the row, then runs after-commit hooks', async () => {
      const p = await createProject(host, { name: 'Deletion Target' });
      const calls: string[] = [];
      const cleanup = (name: string, counts?: Record<string, number>): ProjectCleanupContribution => ({
        async deleteProjectData(em, projectId) {
          calls.push(`${name}:delete:${projectId}`);
          // Still inside the transaction: the project row is there.
          const rows = (await sql(host, em, 'SELECT id FROM projects_projects WHERE id = ?', [projectId])) as unknown[];
          expect(rows).to.have.length(1);
          return counts;
        },
        async afterProjectDeleted(projectId) {
          calls.push(`${name}:after:${projectId}`);
        },
      });
      const { logger, errors } = recordingLogger();
      const deletion = new ProjectDeletion(
        host.kernel.storage,
        storeFor(host),
        fakeContributions({ cleanups: [['scripts', cleanup('a', { scripts: 2 })], ['runs', cleanup('b', { executions: 5 })], ['scripts', cleanup('c', { scripts: 1, pending_tests: 1 })]] }),
        logger,
      );
      const res = await deletion.delete(host.caller, p.project_id);
      expect(res).to.deep.equal({
        project_id: p.project_id,
        name: 'Deletion Target',
        key: p.key,
        removed: { scripts: { scripts: 3, pending_tests: 1 }, runs: { executions: 5 } },
      });
      const id = p.project_id;
      expect(calls).to.deep.equal([`c:delete:${id}`, `b:delete:${id}`, `a:delete:${id}`, `c:after:${id}`, `b:after:${id}`, `a:after:${id}`]);
      expect(await storedProject(host, id)).to.equal(undefined);
      expect(errors).to.deep.equal([]);
    });

    it('rolls everything back when one cleanup throws', async () => {
      const p = await createProject(host, { name: 'Rollback Target', description: 'original' });
      let afterCalled = false;
      const writes: ProjectCleanupContribution = {
        async deleteProjectData(em, projectId) {
          await sql(host, em, 'UPDATE projects_projects SET description = ? WHERE id = ?', ['written by cleanup', projectId]);
        },
        async afterProjectDeleted() {
          afterCalled = true;
        },
      };
      const fails: ProjectCleanupContribution = {
        async deleteProjectData() {
          throw new Error('disk on fire');
        },
      };
      // Load order [fails, writes] → run order writes, fails: the write happens first and must be undone.
      const deletion = new ProjectDeletion(host.kernel.storage, storeFor(host), fakeContributions({ cleanups: [['broken', fails], ['writer', writes]] }), recordingLogger().logger);
      let caught: Error | undefined;
      try {
        await deletion.delete(host.caller, p.project_id);
      } catch (err) {
        caught = err as Error;
      }
      expect(caught?.message).to.equal('project cleanup "broken-0" of plugin "broken" failed');
      expect((caught?.cause as Error).message).to.equal('disk on fire');
      expect(await storedProject(host, p.project_id)).to.include({ name: 'Rollback Target', description: 'original', version: p.version });
      expect(afterCalled).to.equal(false);
    });

    it('passes a ToolError of a cleanup through unchanged (and deletes nothing)', async () => {
      const p = await createProject(host, { name: 'Busy Project' });
      const refuses: ProjectCleanupContribution = {
        async deleteProjectData() {
          throw conflict('a test run of this project is still running', 'Cancel it first.');
        },
      };
      const deletion = new ProjectDeletion(host.kernel.storage, storeFor(host), fakeContributions({ cleanups: [['runs', refuses]] }), recordingLogger().logger);
      const err = await deletion.delete(host.caller, p.project_id).then(
        () => null,
        (e: unknown) => e as { code: string; message: string },
      );
      expect(err).to.include({ code: 'conflict', message: 'a test run of this project is still running' });
      expect(await storedProject(host, p.project_id)).to.not.equal(undefined);
    });

    it('logs a failing after-commit hook instead of failing the delete', async () => {
      const p = await createProject(host, { name: 'Files Left Behind' });
      const { logger, errors } = recordingLogger();
      const flaky: ProjectCleanupContribution = {
        async deleteProjectData() {},
        async afterProjectDeleted() {
          throw new Error('EACCES');
        },
      };
      const deletion = new ProjectDeletion(host.kernel.storage, storeFor(host), fakeContributions({ cleanups: [['files', flaky]] }), logger);
      const res = await deletion.delete(host.caller, p.project_id);
      expect(res).to.include({ project_id: p.project_id });
      expect(res.removed).to.deep.equal({});
      expect(await storedProject(host, p.project_id)).to.equal(undefined);
      expect(errors).to.have.length(1);
      expect(errors[0].msg).to.equal('post-delete cleanup failed');
      expect(errors[0].obj).to.include({ projectId: p.project_id, plugin: 'files' });
    });
  });

  describe('ProjectSummaries', () => {
    it('merges contributed counts, collects them in parallel and takes the newest last_activity', async () => {
      const p = await createProject(host, { name: 'Busy Summary' });
      const started: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const slow = (name: string, counts: Record<string, number>, last: string | null) => ({
        async collect(projectId: number) {
          expect(projectId).to.equal(p.project_id);
          started.push(name);
          if (started.length === 2) release();
          await gate; // resolves only once both contributions started: proves they run in parallel
          return { counts, last_activity: last };
        },
      });
      const summaries = new ProjectSummaries(
        storeFor(host),
        fakeContributions({ statistics: [['scripts', slow('scripts', { scripts: 4, executions: 1 }, '2999-01-01T00:00:00.000Z')], ['runs', slow('runs', { executions: 2, flaky: 1 }, null)]] }),
        recordingLogger().logger,
      );
      const s = await summaries.summary(host.caller, p.project_id);
      expect(s.statistics).to.deep.equal({ test_cases: 0, scripts: 4, executions: 3, flaky: 1 });
      expect(s.last_activity).to.equal('2999-01-01T00:00:00.000Z');
      expect(s.project?.name).to.equal('Busy Summary');
      expect(s).to.not.have.property('statistics_unavailable');
    });

    it('reports a failing contribution as unavailable, logs it, and still answers', async () => {
      const p = await createProject(host, { name: 'Partial Summary' });
      const { logger, errors } = recordingLogger();
      const summaries = new ProjectSummaries(
        storeFor(host),
        fakeContributions({
          statistics: [
            ['scripts', { collect: async () => ({ counts: { scripts: 2 }, last_activity: '2000-01-01T00:00:00.000Z' }) }],
            ['runs', { collect: async () => Promise.reject(new Error('timeout')) }],
          ],
        }),
        logger,
      );
      const s = await summaries.summary(host.caller, p.project_id, ['statistics', 'last_activity']);
      expect(s.statistics).to.deep.equal({ test_cases: 0, scripts: 2, executions: 0 });
      expect(s.last_activity).to.equal(p.updated_at); // the project is newer than year 2000
      expect(s.statistics_unavailable).to.deep.equal(['runs-1']);
      expect(errors.map((e) => e.msg)).to.deep.equal(['project statistics failed']);
    });

    it('does not ask the contributions when only the project is requested', async () => {
      const p = await createProject(host, { name: 'Project Only' });
      let asked = false;
      const summaries = new ProjectSummaries(
        storeFor(host),
        fakeContributions({ statistics: [['scripts', { collect: async () => ((asked = true), { counts: {} }) }]] }),
        recordingLogger().logger,
      );
      const s = await summaries.summary(host.caller, p.project_id, ['project']);
      expect(Object.keys(s).sort()).to.deep.equal(['project', 'project_id']);
      expect(asked).to.equal(false);
    });
  });

  describe('ProjectStore.setGates', () => {
    it('retries on a version mismatch and keeps the concurrent change', async () => {
      const p = await createProject(host, { name: 'Interleaved Gates' });
      const real = host.kernel.storage;
      let guarded = 0;
      const storage: StorageService = {
        dialect: real.dialect,
        dataSource: real.dataSource,
        get manager() {
          return real.manager;
        },
        repo: (e) => real.repo(e),
        query: (q, params, em) => real.query(q, params, em),
        write: (w) => real.write(w),
        async guardedUpdate(em, entity, id, expected, values, next) {
          if (guarded++ === 0) {
            // Another writer lands between our read and our update.
            await sql(host, em, 'UPDATE projects_projects SET test_frameworks = ?, version = ? WHERE id = ?', ['{"_pipeline_run_bola":true,"model":"m"}', 'other-writer', id]);
          }
          return real.guardedUpdate(em, entity, id, expected, values, next);
        },
      };
      const row = await storeFor(host, storage).setGates(host.caller, p.project_id, { _pipeline_run_sast: true });
      expect(guarded).to.equal(2);
      expect(JSON.parse(row.test_frameworks)).to.deep.equal({ _pipeline_run_bola: true, model: 'm', _pipeline_run_sast: true });
      const stored = await storedProject(host, p.project_id);
      expect(JSON.parse(String(stored!.test_frameworks))).to.deep.equal({ _pipeline_run_bola: true, model: 'm', _pipeline_run_sast: true });
      expect(stored!.version).to.equal(row.version);
    });

    it('gives up with conflict when the version never matches, writing nothing', async () => {
      const p = await createProject(host, { name: 'Never Matching' });
      const real = host.kernel.storage;
      let attempts = 0;
      const storage = Object.assign(Object.create(Object.getPrototypeOf(real)), real, {
        guardedUpdate: async () => (attempts++, false),
      }) as StorageService;
      const err = await storeFor(host, storage)
        .setGates(host.caller, p.project_id, { _pipeline_run_sast: true })
        .then(() => null, (e: unknown) => e as { code: string; hint: string });
      expect(err).to.include({ code: 'conflict' });
      expect(err?.hint).to.match(/Retry update_project_pipeline_gates/);
      expect(attempts).to.be.greaterThan(1);
      expect(await storedProject(host, p.project_id)).to.include({ test_frameworks: '{}', version: p.version });
    });
  });
});

describe('projects: ProjectExtensions', () => {
  it('refuses to answer before the plugin initialised, so no delete skips the other packs', () => {
    const ext = new ProjectExtensions();
    expect(() => ext.cleanups()).to.throw(/not initialised/);
    expect(() => ext.statistics()).to.throw(/not initialised/);
  });
});
