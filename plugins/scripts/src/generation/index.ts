/** The deterministic generator and its code checks (also used by tests). */
export { generateDeterministic, planSteps, pytestFunctionName, GENERATION_FRAMEWORKS, type GenerationFramework, type GeneratedCode } from './deterministic.js';
export { parseStep, parseTarget } from './step-parser.js';
export { checkCode, type CodeCheck } from './code-check.js';
export type { Action, Target, StepPlan } from './actions.js';
