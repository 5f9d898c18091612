import { expect } from 'chai';
import { diff, enabledNames, judge, type InventoryFilter, type InventoryTool } from '@testkeeper/kernel/host';

const read: InventoryTool = { name: 'list_projects', toolset: 'projects', plugin: 'projects', readOnly: true };
const write: InventoryTool = { name: 'delete_project', toolset: 'projects', plugin: 'projects', readOnly: false };
const other: InventoryTool = { name: 'run_tests', toolset: 'executions', plugin: 'scripts', readOnly: false };

const open: InventoryFilter = { toolsets: ['*'], allow: [], deny: [], readOnly: false };
const f = (over: Partial<InventoryFilter>): InventoryFilter => ({ ...open, ...over });

describe('inventory: which tools are enabled', () => {
  it('enables every tool when all toolsets are on', () => {
    for (const t of [read, write, other]) expect(judge(t, open)).to.deep.equal({ enabled: true });
  });

  it('a disabled plugin wins over everything, even an explicit allow', () => {
    const v = judge(read, f({ allow: ['list_projects'], disabledPlugins: ['projects'] }));
    expect(v).to.deep.equal({ enabled: false, reason: 'plugin_disabled' });
    expect(judge(other, f({ disabledPlugins: new Set(['projects']) }))).to.deep.equal({ enabled: true });
  });

  it('read-only wins over allow and deny, and spares read-only tools', () => {
    expect(judge(write, f({ readOnly: true, allow: ['delete_project'] }))).to.deep.equal({ enabled: false, reason: 'read_only' });
    expect(judge(write, f({ readOnly: true, deny: ['delete_project'] }))).to.deep.equal({ enabled: false, reason: 'read_only' });
    expect(judge(read, f({ readOnly: true }))).to.deep.equal({ enabled: true });
  });

  it('read-only is reported before deny, and plugin-disabled before read-only', () => {
    expect(judge(write, f({ readOnly: true, deny: ['delete_project'], disabledPlugins: ['projects'] })).enabled).to.equal(false);
    expect(judge(write, f({ readOnly: true, deny: ['delete_project'], disabledPlugins: ['projects'] }))).to.have.property('reason', 'plugin_disabled');
  });

  it('deny wins over allow and over an enabled toolset', () => {
    expect(judge(read, f({ deny: ['list_projects'] }))).to.deep.equal({ enabled: false, reason: 'denied' });
    expect(judge(read, f({ deny: ['list_projects'], allow: ['list_projects'] }))).to.deep.equal({ enabled: false, reason: 'denied' });
  });

  it('allow enables a tool whose toolset is off', () => {
    expect(judge(read, f({ toolsets: ['executions'] }))).to.deep.equal({ enabled: false, reason: 'toolset_off' });
    expect(judge(read, f({ toolsets: ['executions'], allow: ['list_projects'] }))).to.deep.equal({ enabled: true });
    expect(judge(read, f({ toolsets: [], allow: ['list_projects'] }))).to.deep.equal({ enabled: true });
  });

  it('toolsets match by glob; an empty toolset list enables nothing by toolset', () => {
    expect(judge(other, f({ toolsets: ['exec*'] })).enabled).to.equal(true);
    expect(judge(read, f({ toolsets: ['exec*'] })).enabled).to.equal(false);
    expect(judge(read, f({ toolsets: [] }))).to.deep.equal({ enabled: false, reason: 'toolset_off' });
  });

  it('allow and deny are exact tool names, not globs', () => {
    expect(judge(read, f({ deny: ['list_*'] })).enabled).to.equal(true);
    expect(judge(read, f({ toolsets: [], allow: ['list_*'] })).enabled).to.equal(false);
  });

  it('enabledNames applies the filter to a whole inventory', () => {
    const names = enabledNames([read, write, other], f({ toolsets: ['projects'], readOnly: true, allow: ['run_tests'] }));
    expect([...names]).to.deep.equal(['list_projects']);
  });

  it('diff reports what turned on and off', () => {
    expect(diff(new Set(['a', 'b']), new Set(['b', 'c']))).to.deep.equal({ on: ['c'], off: ['a'] });
    expect(diff(new Set(['a']), new Set(['a']))).to.deep.equal({ on: [], off: [] });
  });
});
