import { injectable, type ExtensionPointView, type TestCaseRelationsContribution } from '@testkeeper/kernel';
import type { EntityManager } from 'typeorm';

/** The TestCaseRelations contributions, handed over in onInit (they close after register). */
@injectable()
export class TestCaseRelationsView {
  private view?: ExtensionPointView<TestCaseRelationsContribution>;

  attach(view: ExtensionPointView<TestCaseRelationsContribution>): void {
    this.view = view;
  }

  /** `{ scripts: [...] , ... }` for one test case, from every contributing pack. */
  async collect(testCaseId: number): Promise<Record<string, unknown[]>> {
    const out: Record<string, unknown[]> = {};
    for (const { value } of this.view?.all() ?? []) out[value.key] = await value.related(testCaseId);
    return out;
  }

  /** Lets every pack drop or unlink its references to a test case being deleted (same transaction). */
  async unlink(em: EntityManager, testCaseId: number): Promise<void> {
    for (const { value } of this.view?.all() ?? []) await value.unlinkTestCase?.(em, testCaseId);
  }
}
