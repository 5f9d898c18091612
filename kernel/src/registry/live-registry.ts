import { EventEmitter } from 'node:events';
import { BootError } from '../plugin-api/errors.js';
import { diff, enabledNames, judge, type InventoryFilter, type Verdict } from './inventory.js';
import type { ToolDefinition, ToolListing } from './tool-definition.js';

/**
 * Every loaded tool is registered once. The inventory filter decides which are enabled; a change
 * recomputes it and emits one `changed` event when anything turned on or off. The `tools/list`
 * payload is cached between changes.
 */
export class LiveRegistry extends EventEmitter {
  private readonly tools = new Map<string, ToolDefinition>();
  private enabled = new Set<string>();
  private listingCache: ToolListing[] | null = null;
  private filter: InventoryFilter;

  constructor(filter: InventoryFilter) {
    super();
    // Every open MCP session listens for `changed`; thousands of HTTP sessions are normal.
    this.setMaxListeners(0);
    this.filter = filter;
  }

  add(def: ToolDefinition): void {
    const existing = this.tools.get(def.name);
    if (existing) {
      throw new BootError(
        'duplicate_tool',
        `Tool "${def.name}" is defined by plugin "${existing.plugin}" and again by plugin "${def.plugin}"; tool names must be unique (prefix third-party tools with the plugin id)`,
      );
    }
    this.tools.set(def.name, def);
  }

  /** Recomputes the enabled set; returns what changed and emits `changed` once if anything did. */
  apply(filter: InventoryFilter = this.filter): { on: string[]; off: string[] } {
    this.filter = filter;
    const next = enabledNames(this.inventoryTools(), filter);
    const change = diff(this.enabled, next);
    this.enabled = next;
    if (change.on.length || change.off.length) {
      this.listingCache = null;
      this.emit('changed', change);
    }
    return change;
  }

  /** The enabled tool, or undefined (unknown and disabled look the same to callers). */
  get(name: string): ToolDefinition | undefined {
    return this.enabled.has(name) ? this.tools.get(name) : undefined;
  }

  listing(): ToolListing[] {
    if (!this.listingCache) {
      this.listingCache = [...this.tools.values()].filter((t) => this.enabled.has(t.name)).map((t) => t.listing);
    }
    return this.listingCache;
  }

  all(): Array<ToolDefinition & { verdict: Verdict }> {
    return [...this.tools.values()].map((t) => ({ ...t, verdict: judge(this.toInventory(t), this.filter) }));
  }

  isEnabled(name: string): boolean {
    return this.enabled.has(name);
  }

  private inventoryTools() {
    return [...this.tools.values()].map((t) => this.toInventory(t));
  }

  private toInventory(t: ToolDefinition) {
    return { name: t.name, toolset: t.toolset, plugin: t.plugin, readOnly: t.annotations.readOnlyHint };
  }
}
