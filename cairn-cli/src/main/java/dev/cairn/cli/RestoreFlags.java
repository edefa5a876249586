package dev.cairn.cli;

import dev.cairn.core.contract.InputChecks;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.events.Command;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.RestoreMode;
import java.util.List;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * The flags of a restore (a picocli mixin of {@code cairn resume} and {@code cairn register}): Flink's {@code run -s
 * <path> --restoreMode}. A savepoint is named by its location or its id, a retained checkpoint by its id; naming
 * neither restores the job's restore point (after a stop: the stop's savepoint).
 */
final class RestoreFlags {

    private static final Pattern ID = Pattern.compile("[0-9]+");

    @Option(names = "--from-savepoint", paramLabel = "PATH|ID",
            description = "The savepoint to restore: its location (Flink: run -s <path>) or its checkpoint id, as "
                    + "cairn savepoint list shows them.")
    String fromSavepoint;

    @Option(names = "--from-checkpoint", paramLabel = "ID",
            description = "A retained checkpoint (or savepoint) to restore, by id.")
    Long fromCheckpoint;

    @Option(names = "--restore-mode", paramLabel = "MODE",
            description = "claim (Cairn owns the point from then on and discards it once subsumed) or no_claim (it "
                    + "stays yours; the first checkpoint after it is a full one); default no_claim (Flink: "
                    + "--restoreMode).")
    RestoreMode restoreMode;

    /** Whether any restore flag was given. */
    boolean given() {
        return fromSavepoint != null || fromCheckpoint != null || restoreMode != null;
    }

    /** Whether a point to restore is named (else the job's restore point is). */
    boolean namesPoint() {
        return fromSavepoint != null || fromCheckpoint != null;
    }

    /**
     * The RestoreJob the flags describe, every problem added to {@code problems} by flag.
     *
     * @return {@code null} when a problem was found
     */
    RestoreJob event(String jobId, String requestId, long nowMs, List<String> problems) {
        int before = problems.size();
        Long id = fromCheckpoint;
        String path = null;
        if (fromSavepoint != null && fromCheckpoint != null) {
            problems.add("--from-savepoint and --from-checkpoint both name the point to restore; give one of them");
        } else if (fromSavepoint != null && fromSavepoint.isBlank()) {
            problems.add("--from-savepoint is empty: give a savepoint's location or id");
        } else if (fromSavepoint != null && ID.matcher(fromSavepoint).matches()) {
            id = Long.parseLong(fromSavepoint);
        } else {
            path = fromSavepoint;
        }
        if (fromCheckpoint != null && fromCheckpoint < 0) {
            problems.add("--from-checkpoint must be a checkpoint id (>= 0), not " + fromCheckpoint);
        }
        if (problems.size() > before) {
            return null;
        }
        RestoreJob restore = RestoreJob.newBuilder().setJobId(jobId).setRequestId(requestId).setCheckpointId(id)
                .setSavepointPath(path).setRestoreMode(restoreMode == null ? RestoreMode.NO_CLAIM : restoreMode)
                .setRequester(CairnCli.REQUESTER).setTimestampMs(nowMs).build();
        InputChecks.problem(new Command.Restore(restore, 0.0), InputLimits.DEFAULTS).ifPresent(problems::add);
        return restore;
    }

    /** What the restore asks for, for the output. */
    static String describe(RestoreJob restore) {
        String from = restore.getCheckpointId() != null ? "checkpoint " + restore.getCheckpointId()
                : restore.getSavepointPath() != null ? "the savepoint at " + restore.getSavepointPath()
                : "its restore point";
        return "a restore of the job from " + from + " in " + restore.getRestoreMode() + " mode";
    }
}
