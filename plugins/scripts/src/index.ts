import { definePlugin, ScriptRunners } from '@testkeeper/kernel';
import { registerExecutions } from './executions/register.js';
import { registerScripts } from './register.js';

export default definePlugin({
  id: 'scripts',
  register(reg) {
    reg.extensionPoint(ScriptRunners);
    registerScripts(reg);
    registerExecutions(reg);
  },
});
