package dev.ourios.chaos;

import dev.ourios.cli.Main;
import dev.ourios.store.HaltingObjectStore;
import java.util.Arrays;

/**
 * The real {@code ourios} command line on a store that halts the process at one named protocol step: the chaos
 * harness's halted children. Arguments: {@code <step> <ourios arguments...>}, the step a
 * {@link HaltingObjectStore.Step} label; the command runs as {@code ourios <ourios arguments...>} does, every
 * store it opens wrapped by {@link HaltingObjectStore}. Exits {@value HaltingObjectStore#HALT_STATUS} at the step,
 * otherwise as {@code ourios} does (a mistyped step: 2, before anything is touched).
 */
public final class HaltingCli {
    private HaltingCli() {
    }

    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("usage: HaltingCli <step> <ourios arguments...>");
            System.exit(2);
        }
        HaltingObjectStore.Step step;
        try {
            step = HaltingObjectStore.Step.of(args[0]);
        } catch (IllegalArgumentException e) {
            System.err.println("HaltingCli: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(Main.run(store -> HaltingObjectStore.haltingAt(store, step),
                Arrays.copyOfRange(args, 1, args.length)));
    }
}
