import { injectable, invalidArgument, type ExtensionPointView, type TcmBackend } from '@testkeeper/kernel';

/** The `projects.tcm` contributions, handed over in onInit. */
@injectable()
export class TcmRegistry {
  private view?: ExtensionPointView<TcmBackend>;

  attach(view: ExtensionPointView<TcmBackend>): void {
    this.view = view;
  }

  names(): string[] {
    return this.view?.ids() ?? [];
  }

  require(name: string): TcmBackend {
    const backend = this.view?.get(name);
    if (!backend) throw invalidArgument(`tcm "${name}" is not available`, `Use one of: ${this.names().join(', ') || 'none installed'}.`);
    return backend;
  }
}
