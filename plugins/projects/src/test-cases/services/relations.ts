import { injectable, type ExtensionPointView, type TestCaseRelationsContribution } from '@testkeeper/kernel';

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
}
