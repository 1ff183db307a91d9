import type { Window } from "../content/load.ts";
import type { Audiovisual, Director } from "../content/schema.ts";

/** A work as one domain offers it at the build date (domain-view.ts lists them, order.ts orders them). */
export interface ListedWork {
  work: Audiovisual;
  director: Director | null;
  window: Window;
  isNew: boolean;
  /** Leaving the domain soon: available_until - T < leaving_days (docs/interface.md#listing). */
  isLeaving: boolean;
}
