import { injectable, Tokens, type DependencyContainer, type ModelService, type TestCaseReader } from '@testkeeper/kernel';

/**
 * Services this pack uses when another pack or the kernel provides them: test cases (projects pack)
 * and models (kernel). Filled once in onInit, so tools see what the running server actually has.
 */
@injectable()
export class OptionalServices {
  testCases: TestCaseReader | null = null;
  models: ModelService | null = null;

  resolveFrom(container: DependencyContainer): void {
    this.testCases = container.isRegistered(Tokens.TestCases, true) ? container.resolve(Tokens.TestCases) : null;
    this.models = container.isRegistered(Tokens.Models, true) ? container.resolve(Tokens.Models) : null;
  }
}
