package dev.cairn.cli;

import java.util.List;
import picocli.CommandLine.Option;

/**
 * How {@code cairn savepoint}, {@code stop} and {@code trigger --wait} wait for the checkpoint they asked for: how
 * long, and whether to draw the acknowledgements' progress bar (drawn on a terminal anyway, with {@code --rest-url}).
 */
final class WaitFlags {

    @Option(names = "--wait-ms", defaultValue = "600000", paramLabel = "MS",
            description = "How long to wait for the checkpoint's outcome, >= 1 (default ${DEFAULT-VALUE}).")
    long waitMs;

    @Option(names = "--progress",
            description = "Draw the progress bar of the acknowledgements on stderr even when it is not a terminal "
                    + "(with --rest-url: the journal does not carry acknowledgements).")
    boolean progress;

    /** Adds what is wrong with the flags to {@code problems}. */
    void check(List<String> problems) {
        if (waitMs < 1) {
            problems.add("--wait-ms must be >= 1, not " + waitMs + " (to return at once, leave out the wait: "
                    + "--detached, or trigger without --wait)");
        }
    }
}
