package dev.cairn.cli;

import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RestoreJob;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code cairn resume}: produces a {@code RestoreJob} (Flink: {@code flink run -s <path> --restoreMode}) and waits for
 * the coordinator's outcome.
 */
@Command(name = "resume",
        description = "Resumes a job that is not RUNNING (stopped, suspended, canceled or failed) from a point its "
                + "coordinator keeps: a savepoint (--from-savepoint), a retained checkpoint (--from-checkpoint), or "
                + "by default its restore point (after cairn stop: the stop's savepoint). The point becomes the "
                + "job's restore point, which every sidecar restores, and the job is RUNNING again. Produces a "
                + "RestoreJob and waits for the coordinator's outcome.")
final class ResumeCommand extends AwaitedSubcommand {

    @Mixin
    RestoreFlags restore;

    @Override
    AwaitedRequest request() {
        List<String> problems = commonProblems();
        RestoreJob event = restore.event(jobId, await.requestIdOrNew(), cli.nowMs(), problems);
        CairnCli.requireNoProblems(spec, problems);
        return restoring(event);
    }

    /** A restore that prints, once it completed, where the job goes on from. */
    static AwaitedRequest restoring(RestoreJob event) {
        return new AwaitedRequest(event.getJobId(), event.getRequestId(), new RequestEnvelope(event),
                RestoreFlags.describe(event), outcome -> "Restored: job '" + event.getJobId()
                        + "' is RUNNING again from checkpoint " + outcome.getCheckpointId() + " ("
                        + event.getRestoreMode() + "), its restore point; new checkpoints go on above every id it "
                        + "has used.");
    }
}
