package dev.cairn.cli;

import java.util.List;
import java.util.UUID;
import picocli.CommandLine.Option;

/**
 * The flags of a request whose outcome the command waits for ({@code cairn resume}, {@code cairn savepoint
 * dispose}): its id, and how long to wait.
 */
final class AwaitFlags {

    @Option(names = "--request-id", paramLabel = "ID",
            description = "The request's id (default: a new UUID); sending the same id again asks only once.")
    String requestId;

    @Option(names = "--wait-ms", defaultValue = "60000", paramLabel = "MS",
            description = "How long to wait for the coordinator's outcome, >= 0; 0 only sends (default "
                    + "${DEFAULT-VALUE}).")
    long waitMs;

    /** The request id given, or a new UUID. */
    String requestIdOrNew() {
        return requestId != null ? requestId : UUID.randomUUID().toString();
    }

    /** Adds what is wrong with the flags to {@code problems}. */
    void check(List<String> problems) {
        if (waitMs < 0) {
            problems.add("--wait-ms must be >= 0, not " + waitMs);
        }
    }
}
