package dev.cairn.cli;

import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.contract.SpecProblem;
import dev.cairn.core.contract.TriggerRequests;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RescaleJob;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.TaskRescale;
import dev.cairn.events.TriggerRequest;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cairn rescale}: produces a {@code RescaleJob} (Flink's Kubernetes operator: stop with a savepoint, change the
 * parallelism, resume from the savepoint) and waits for the coordinator's outcome, as {@code cairn resume} does.
 */
@Command(name = "rescale",
        description = "Changes the parallelism of some of a job's tasks (--parallelism TASK=N, repeatable; the others "
                + "keep theirs). A RUNNING job first stops with a savepoint (to --target, default its storage "
                + "location), then takes the new parallelism and resumes from that savepoint, its state redistributed "
                + "over the new subtasks; a job that is not RUNNING takes it and resumes from its restore point at "
                + "once. Produces a RescaleJob and waits for the coordinator's outcome.")
final class RescaleCommand extends AwaitedSubcommand {

    /** The flag of each field of the stop's savepoint request, as {@link TriggerRequests}' problems name them. */
    private static final Map<String, String> FLAGS = Map.of("jobId", "--job", "requestId", "--request-id",
            "targetLocation", "--target");

    @Option(names = ParallelismFlags.FLAG, paramLabel = "TASK=N",
            description = "A task's new parallelism, from 1 to the task's max parallelism; repeat it for each task "
                    + "to rescale, e.g. --parallelism count=3 --parallelism sink=1.")
    List<String> parallelism;

    @Option(names = "--target", paramLabel = "LOCATION",
            description = "Where the savepoint of a RUNNING job goes (default: the job's storage location).")
    String target;

    @Option(names = "--restore-mode", paramLabel = "MODE",
            description = "How the job resumes from the savepoint: no_claim (default; it stays yours, the first "
                    + "checkpoint after it is a full one) or claim (Cairn discards it once subsumed).")
    RestoreMode restoreMode;

    @Override
    AwaitedRequest request() {
        List<String> problems = commonProblems();
        List<TaskRescale> tasks = ParallelismFlags.tasks(parallelism, problems);
        RescaleJob event = RescaleJob.newBuilder().setJobId(jobId).setRequestId(await.requestIdOrNew())
                .setTasks(tasks).setTargetLocation(target)
                .setRestoreMode(restoreMode == null ? RestoreMode.NO_CLAIM : restoreMode)
                .setRequester(CairnCli.REQUESTER).setTimestampMs(cli.nowMs()).build();
        for (SpecProblem problem : TriggerRequests.boundsProblems(stopWithSavepoint(event), InputLimits.DEFAULTS)) {
            if (!problem.path().equals("jobId") || !jobId.isBlank()) {
                problems.add(FLAGS.getOrDefault(problem.path(), problem.path()) + " " + problem.message());
            }
        }
        CairnCli.requireNoProblems(spec, problems);
        return rescaling(event);
    }

    /** A rescale that prints, once it completed, the parallelism the job runs with and where it went on from. */
    static AwaitedRequest rescaling(RescaleJob event) {
        String tasks = ParallelismFlags.describe(event.getTasks());
        String where = event.getTargetLocation() != null ? event.getTargetLocation() : "the job's storage location";
        return new AwaitedRequest(event.getJobId(), event.getRequestId(), new RequestEnvelope(event),
                "a rescale of the job to " + tasks + " (if it is RUNNING, it stops with a savepoint to " + where
                        + " first), resuming in " + event.getRestoreMode() + " mode",
                outcome -> "Rescaled: job '" + event.getJobId() + "' is RUNNING again with " + tasks
                        + ", from checkpoint " + outcome.getCheckpointId() + " (" + event.getRestoreMode()
                        + "), its restore point; start the workers of the new parallelism now.");
    }

    /** The stop the coordinator takes of a RUNNING job: its ids and target are checked by the coordinator's rules. */
    private static TriggerRequest stopWithSavepoint(RescaleJob rescale) {
        return TriggerRequest.newBuilder().setJobId(rescale.getJobId()).setRequestId(rescale.getRequestId())
                .setType(CheckpointType.SAVEPOINT).setTargetLocation(rescale.getTargetLocation())
                .setRequester(rescale.getRequester()).setTimestampMs(rescale.getTimestampMs())
                .setPostCheckpointAction(PostCheckpointAction.SUSPEND).build();
    }
}
