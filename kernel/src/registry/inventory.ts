import picomatch from 'picomatch';

/** What the inventory needs to know of a tool. Pure data, so the rules are unit-testable. */
export interface InventoryTool {
  name: string;
  toolset: string;
  plugin: string;
  readOnly: boolean;
}

export interface InventoryFilter {
  /** Globs of toolset ids. */
  toolsets: string[];
  /** Tool names enabled even if their toolset is not. */
  allow: string[];
  /** Tool names never enabled. */
  deny: string[];
  readOnly: boolean;
  /** Plugin ids whose tools are switched off (disabled at run time). */
  disabledPlugins?: Iterable<string>;
}

export type Verdict = { enabled: true } | { enabled: false; reason: 'read_only' | 'denied' | 'plugin_disabled' | 'toolset_off' };

/**
 * Decides which tools are enabled. Precedence, strongest first:
 * plugin disabled > read-only > deny > (toolset enabled OR allow).
 */
export function judge(tool: InventoryTool, filter: InventoryFilter): Verdict {
  const disabled = new Set(filter.disabledPlugins ?? []);
  if (disabled.has(tool.plugin)) return { enabled: false, reason: 'plugin_disabled' };
  if (filter.readOnly && !tool.readOnly) return { enabled: false, reason: 'read_only' };
  if (filter.deny.includes(tool.name)) return { enabled: false, reason: 'denied' };
  if (filter.allow.includes(tool.name)) return { enabled: true };
  if (filter.toolsets.length > 0 && picomatch.isMatch(tool.toolset, filter.toolsets)) return { enabled: true };
  return { enabled: false, reason: 'toolset_off' };
}

export function enabledNames(tools: Iterable<InventoryTool>, filter: InventoryFilter): Set<string> {
  const out = new Set<string>();
  for (const t of tools) if (judge(t, filter).enabled) out.add(t.name);
  return out;
}

/** Names that turn on and off between two enabled sets. */
export function diff(before: Set<string>, after: Set<string>): { on: string[]; off: string[] } {
  return {
    on: [...after].filter((n) => !before.has(n)),
    off: [...before].filter((n) => !after.has(n)),
  };
}
