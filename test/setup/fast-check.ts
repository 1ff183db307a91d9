import fc from "fast-check";

/**
 * Every property test draws the same cases on every run and machine (a call's own `seed` aside):
 * a failure is repeated by running the file again, and a run's length does not vary. FC_SEED
 * draws other cases, for a search beyond the fixed ones; the seed of a failing run is in its
 * message.
 */
export const FC_SEED = Number(process.env.FC_SEED ?? 20261127);

fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: FC_SEED });
