package dev.cairn.cli;

import dev.cairn.client.rest.Checkpoints;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code cairn checkpoints JOB}: a job's checkpoint statistics (Flink's web UI checkpoint tab), from
 * {@code GET /jobs/{jobId}/checkpoints}: the counts, the latest completed checkpoint, savepoint and failure, the
 * pending checkpoints with their acknowledgements, and the history, newest first.
 */
@Command(name = "checkpoints",
        description = "Shows a job's checkpoint statistics, as Flink's checkpoint statistics show them: the counts, "
                + "the latest completed checkpoint, savepoint and failure, the pending checkpoints and the history, "
                + "newest first: GET /jobs/{id}/checkpoints of the REST API (--rest-url).")
final class CheckpointsCommand extends RestReadCommand {

    @Parameters(index = "0", paramLabel = "JOB", description = "The job id.")
    String jobId;

    @Override
    public Integer call() {
        CairnCli.requireNoProblems(spec, jobId.isBlank() ? List.of("JOB must not be blank") : List.of());
        Checkpoints stats = answer(client().checkpoints(jobId));
        PrintWriter out = spec.commandLine().getOut();
        if (format == Format.JSON) {
            AuditOutput.json(out, stats);
        } else {
            text(out, stats);
        }
        out.flush();
        return 0;
    }

    private void text(PrintWriter out, Checkpoints stats) {
        Checkpoints.Counts counts = stats.counts();
        out.println("Job " + jobId + ": " + counts.triggered() + " triggered, " + counts.inProgress()
                + " in progress, " + counts.completed() + " completed, " + counts.failed() + " failed");
        latest(out, "latest completed", stats.latestCompleted());
        latest(out, "latest savepoint", stats.latestSavepoint());
        latest(out, "latest failed", stats.latestFailed());
        if (!stats.pending().isEmpty()) {
            out.println("Pending:");
            table(out, stats.pending());
        }
        out.println(stats.history().isEmpty() ? "History: none yet." : "History (newest first):");
        if (!stats.history().isEmpty()) {
            table(out, stats.history());
        }
    }

    private static void latest(PrintWriter out, String what, Checkpoints.Summary c) {
        if (c != null) {
            out.println("  " + what + ": " + c.checkpointType().toLowerCase(java.util.Locale.ROOT) + " " + c.id()
                    + " at " + AuditOutput.time(c.triggerTimestamp()) + ", " + ms(c.endToEndDuration()) + ", "
                    + (c.failureMessage() != null ? c.failureMessage() + " (" + c.failureReason() + ")"
                            : c.externalPath()));
        }
    }

    private static void table(PrintWriter out, List<Checkpoints.Summary> checkpoints) {
        String row = "%-8s %-12s %-10s %-24s %10s %12s %9s %s%n";
        out.printf(row, "ID", "STATUS", "TYPE", "TRIGGERED", "DURATION", "SIZE", "ACKS", "PATH / FAILURE");
        for (Checkpoints.Summary c : checkpoints) {
            out.printf(row, c.id(), c.status(), c.checkpointType(), AuditOutput.time(c.triggerTimestamp()),
                    ms(c.endToEndDuration()), c.stateSize(), c.numAcknowledgedSubtasks() + "/" + c.numSubtasks(),
                    c.failureMessage() != null ? c.failureReason() + ": " + c.failureMessage() : c.externalPath());
        }
    }
}
